package org.troupe.apps.nozzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NozzleShapeTest {
    @Test
    void shouldFollowTheShippedNozzleBetweenItsPoints() {
        final NozzleShape s = NozzleShape.standard();
        assertEquals(0.0, s.start());
        assertEquals(3.0, s.end());
        assertEquals(1.5, s.throat(), 1e-4);
        for (double x = 0; x <= 3; x += 0.0137) { // between the points too: A = A*(1 + 2.2 (x - 1.5)^2)
            assertEquals(Math.PI * 0.01 * (1 + 2.2 * (x - 1.5) * (x - 1.5)), s.area(x), 2e-4 * s.area(x), "x = " + x);
        }
    }

    @Test
    void shouldSayWhatIsWrongWithANozzleFile() {
        assertTrue(fails("0 1\n1 0.5\n2\n3 1\n").contains("line 3: expected two numbers, x and the radius r"));
        assertTrue(fails("0 1\n1 0.5\n2 x\n3 1\n").contains("line 3: '2 x' is not two numbers"));
        assertTrue(fails("0 1\n1 0.5\n1 0.6\n3 1\n").contains("line 3: x must increase"));
        assertTrue(fails("0 1\n1 -0.5\n2 0.6\n3 1\n").contains("line 2: the radius must be a positive number"));
        assertTrue(fails("# only\n0 1\n1 0.5\n").contains("at least four points"));
        assertTrue(fails("0 1\n1 2\n2 3\n3 4\n").contains("the narrowest section (x = 0.0) is at an end"));
        assertTrue(fails("0 1\n1 1\n2 1\n3 1\n").contains("is at an end"), "a duct of one width has no throat");
        assertTrue(fails("0 1\n1 0.5\n2 1\n3 0.4\n4 1\n").contains("narrows to one throat"), "two throats");
        assertTrue(fails(new String(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1}, StandardCharsets.ISO_8859_1))
                .contains("n.txt"));
        final IllegalArgumentException missing =
                assertThrows(IllegalArgumentException.class, () -> NozzleShape.read(Path.of("no/such/nozzle.txt")));
        assertTrue(missing.getMessage().startsWith("cannot read the nozzle file no/such/nozzle.txt"));
    }

    private static String fails(final String text) {
        return assertThrows(IllegalArgumentException.class, () -> NozzleShape.parse(text, "n.txt"))
                .getMessage();
    }
}
