package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;
import org.troupe.serialization.SerializationConfig;

/** Subdomains and the collector as active objects in this JVM: the exchange protocol, without a network. */
class SubdomainsInOneJvmTest {
    private static TroupeRuntime runtime;

    @BeforeAll
    static void start() {
        runtime = TroupeRuntime.start(CoreConfig.builder()
            .serialization(SerializationConfig.builder().allowPackage("org.troupe.apps.jem3d").build()).build());
    }

    @AfterAll
    static void stop() {
        runtime.shutdown();
    }

    static Jem3dReport run(final Mesh mesh, final int steps, final int[] division) {
        Jem3dOptions options = Jem3dOptions.defaults(null).withMesh(mesh).withSteps(steps);
        return new Jem3dRun(options, new Jem3dRun.Listener() { }).keepFields()
            .run(new Jem3dRun.Placement(List.of(runtime.defaultNode()), mesh, division, "test"));
    }

    @Test
    void everyDivisionGivesTheSequentialFieldsBitForBit() {
        Mesh mesh = new Mesh(8, 7, 9);
        Jem3dReport sequential = run(mesh, 12, new int[] {1, 1, 1});
        double[][] expected = BlockFields.assemble(mesh, sequential.fields());
        for (int[] division : List.of(new int[] {2, 1, 1}, new int[] {2, 2, 1}, new int[] {1, 2, 3},
            new int[] {3, 2, 2})) {
            Jem3dReport divided = run(mesh, 12, division);
            double[][] actual = BlockFields.assemble(mesh, divided.fields());
            assertArrayEquals(expected[0], actual[0], 0.0, "E of division " + Division.format(division));
            assertArrayEquals(expected[1], actual[1], 0.0, "H of division " + Division.format(division));
            assertEquals(12, divided.steps());
            assertEquals(sequential.errorE(), divided.errorE(), 1e-14);
            assertTrue(divided.energyDrift() < 1e-12, "drift " + divided.energyDrift());
        }
    }
}
