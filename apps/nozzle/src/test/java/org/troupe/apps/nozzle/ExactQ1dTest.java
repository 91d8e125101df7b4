package org.troupe.apps.nozzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExactQ1dTest {
    private final NozzleShape shape = NozzleShape.standard();

    @Test
    void shouldBeSonicAtTheThroatAndFollowTheAreaMachRelation() {
        final ExactQ1d e = ExactQ1d.isentropic(shape);
        assertEquals(1.0, e.at(e.throat()).mach(), 1e-6);
        for (final double x : new double[] {0.3, 1.0, 2.0, 2.9}) {
            final double m = e.at(x).mach();
            assertEquals(shape.area(x) / shape.area(e.throat()), Gas.areaRatio(m), 1e-9, "x = " + x);
            assertEquals(x > e.throat(), m > 1, "x = " + x);
        }
        // the textbook nozzle: exit area ratio 5.95, exit Mach 3.35 (Anderson)
        assertEquals(3.35, e.at(3.0).mach(), 0.01);
    }

    @Test
    void shouldPutTheShockWhereItsBackPressureSaysAndObeyTheShockRelations() {
        final double pb = ExactQ1d.backPressureForShockAt(shape, 2.1);
        final ExactQ1d e = ExactQ1d.withBackPressure(shape, pb);
        assertEquals(2.1, e.shock(), 1e-9);
        assertEquals(pb, e.at(3.0).pressure(), 1e-12);
        // Anderson's nozzle with a shock at x = 2.1 has an exit pressure of 0.6784 p0
        assertEquals(0.6784, pb / Gas.STAGNATION_PRESSURE, 1e-3);
        final ExactQ1d.State before = e.at(2.1 - 1e-9);
        final ExactQ1d.State after = e.at(2.1 + 1e-9);
        assertEquals(Gas.machBehindShock(before.mach()), after.mach(), 1e-6);
        final double g = Gas.GAMMA;
        final double m1 = before.mach();
        assertEquals(1 + 2 * g / (g + 1) * (m1 * m1 - 1), after.pressure() / before.pressure(), 1e-6);
        assertEquals(before.density() * before.velocity(), after.density() * after.velocity(), 1e-9);
    }

    @Test
    void shouldRefuseABackPressureThatPutsNoShockInTheNozzle() {
        final double[] range = ExactQ1d.isentropic(shape).backPressureRange();
        final String message = assertThrows(
                        IllegalArgumentException.class, () -> ExactQ1d.withBackPressure(shape, range[1] * 1.01))
                .getMessage();
        assertTrue(
                message.contains(
                        "puts no normal shock in this nozzle: with a shock in its diverging part it lies" + " between"),
                message);
    }
}
