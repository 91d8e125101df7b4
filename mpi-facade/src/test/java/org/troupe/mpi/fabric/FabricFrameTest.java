package org.troupe.mpi.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FabricFrameTest {
    @Test
    void aHeaderCarriesItsFieldsLittleEndianInTheirOrder() {
        final ByteBuffer h = FabricFrame.header(FabricFrame.DATA, 7, 3, -1, Kind.DOUBLE, 42, 1L << 40, 9L)
                .order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(FabricFrame.HEADER_BYTES, h.remaining(), "ready to be read, whole");
        assertEquals(FabricFrame.DATA, h.get());
        assertEquals(7, h.getInt());
        assertEquals(3, h.getInt());
        assertEquals(-1, h.getInt());
        assertSame(Kind.DOUBLE, FabricFrame.kind(h.get()));
        assertEquals(42, h.getInt());
        assertEquals(1L << 40, h.getLong());
        assertEquals(9L, h.getLong());
        assertEquals(0, h.remaining());
        assertEquals(
                1,
                FabricFrame.header(FabricFrame.EAGER, 1, 0, 0, Kind.BYTE, 0, 0, 0)
                        .get(1),
                "the context's low byte comes first");
    }

    @Test
    void aKindNumberOutsideTheKindsIsNoKind() {
        assertSame(Kind.values()[0], FabricFrame.kind(0));
        assertSame(Kind.values()[Kind.values().length - 1], FabricFrame.kind(Kind.values().length - 1));
        assertNull(FabricFrame.kind(Kind.values().length));
        assertNull(FabricFrame.kind(-1));
    }

    @Test
    void aPayloadsTextIsReadWithoutConsumingIt() {
        final ByteBuffer payload = ByteBuffer.wrap("rank 2 aborted: é".getBytes(StandardCharsets.UTF_8));
        assertEquals("rank 2 aborted: é", FabricFrame.text(payload));
        assertEquals("rank 2 aborted: é", FabricFrame.text(payload), "the payload is left as it was");
    }
}
