package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The frame layout is the wire format: these numbers change only with the protocol's version. */
class FrameDescriptorTest {
    @Test
    void aFrameIsItsLengthThenItsKindThenItsPayloadThenItsTag() {
        assertEquals(0, FrameDescriptor.LENGTH_OFFSET);
        assertEquals(4, FrameDescriptor.KIND_OFFSET);
        assertEquals(5, FrameDescriptor.PAYLOAD_OFFSET);
        assertEquals(5, FrameDescriptor.HEADER_LENGTH);
        assertEquals(0, FrameDescriptor.MESSAGE);
        assertEquals(1, FrameDescriptor.PING);
    }

    @Test
    void theLengthFieldCountsTheKindThePayloadAndTheTag() {
        assertEquals(1 + 3 + 16, FrameDescriptor.lengthField(3, 16));
        assertEquals(4 + 1 + 3 + 16, FrameDescriptor.frameLength(3, 16));
        final int lengthField = FrameDescriptor.lengthField(3, 16);
        assertEquals(FrameDescriptor.frameLength(3, 16), FrameDescriptor.framedLength(lengthField));
        assertEquals(3, FrameDescriptor.payloadLength(lengthField, 16));
        assertEquals(1, FrameDescriptor.lengthField(0, 0), "a heartbeat without tags is its kind alone");
    }
}
