package org.troupe.apps.nozzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** What bin/nozzle checks before mpjrun starts any rank, so that bad input is one line and status 2. */
class CheckOptionsTest {
    @Test
    void aBackPressureOutOfRangeIsTheProblem() {
        assertEquals(
                "--back-pressure 2 is out of range: from 0.0 to 1.0",
                Nozzle.problem(new String[] {"--case", "shock", "--back-pressure", "2"}, 1));
    }

    @Test
    void anUnknownOptionAndTooFewCellsForTheRanksAreProblems() {
        assertEquals("unknown option --ranks", Nozzle.problem(new String[] {"--ranks", "4"}, 1));
        assertEquals(
                "8 cells along the axis cannot be shared by 8 ranks: each needs at least 2 (use more cells or fewer"
                        + " ranks)",
                Nozzle.problem(new String[] {"--cells", "8"}, 8));
    }

    @Test
    void goodOptionsAndHelpAreNoProblem() {
        assertNull(Nozzle.problem(new String[] {"--case", "shock", "--cells", "100"}, 4));
        assertNull(Nozzle.problem(new String[] {}, 2));
        assertNull(Nozzle.problem(new String[] {"--help"}, 2));
    }
}
