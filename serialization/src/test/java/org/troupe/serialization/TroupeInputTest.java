package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bounds on what a message read from the wire may make the reader allocate. */
class TroupeInputTest {
    @Test
    void shouldLetTheContainersOfAMessageAnnounceAtMostAsManyElementsAsItHasBytes() {
        final TroupeInput in = new TroupeInput(new byte[100], 0, 100);
        in.startMessage();
        in.checkElements(60);
        in.checkElements(40);
        assertThrows(RuntimeException.class, () -> in.checkElements(1));
        in.startMessage();
        in.checkElements(100);
    }

    @Test
    void shouldRefuseNestedContainersThatEachAnnounceTheRestOfTheMessage() {
        final Wire wire = Wire.permissive();
        Object nested = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            nested = new ArrayList<>(List.of(nested));
        }
        wire.receive(wire.send(nested)); // defines ArrayList
        final byte[] message = wire.send(nested);
        // Each level is "0x82 (one element, all of one class) 0x0a (ArrayList) 0x00"; announce 62 elements instead.
        int patched = 0;
        for (int i = 0; i + 2 < message.length; i++) {
            if (message[i] == (byte) 0x82 && message[i + 1] == 0x0a) {
                message[i] = (byte) 0xBF;
                patched++;
            }
        }
        assertTrue(patched == 300, "the test knows the layout of a nested list: " + Wire.hex(message));
        final SerializationException e =
                assertThrows(SerializationException.class, () -> wire.receive(Arrays.copyOf(message, message.length)));
        assertTrue(e.getMessage().contains("more elements than it has bytes"), e.getMessage());
    }
}
