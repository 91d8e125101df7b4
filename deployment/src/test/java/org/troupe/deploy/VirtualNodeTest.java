package org.troupe.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.descriptor.ProcessSpec;
import org.troupe.deploy.descriptor.VirtualNodeSpec;
import org.troupe.deploy.launch.Launch;

/** What a virtual node makes of its launches' ends: whether something failed, so that their logs are kept. */
class VirtualNodeTest {
    private TroupeRuntime runtime;

    @BeforeEach
    void start() {
        runtime = TroupeRuntime.start(CoreConfig.builder().build());
    }

    @AfterEach
    void stop() {
        runtime.shutdown();
    }

    private static Launch launch(final String label) {
        return new Launch(
                new Launch.Context(
                        "dtest", "127.0.0.1:1", "s3cret", Map.of(), Path.of("."), "", "", List.of(), List.of(), false),
                new ProcessSpec.Jvm("jvms", "", "", List.of(), Map.of(), 1, 1),
                label,
                "dtest.0." + label + ".",
                null,
                "vn",
                0);
    }

    /**
     * The network cut of the issue: a launch's JVM came, was lost, and then its script ended by itself (the JVM
     * exited with its parent gone). Nothing is missing by count, but the launch failed: its logs say why.
     */
    @Test
    void aLaunchWhoseJvmWasLostHasFailedWhenItEnds() {
        final VirtualNode vn = new VirtualNode(new VirtualNodeSpec("vn", 1, false));
        final Launch cut = launch("1");
        vn.add(cut);
        final Node node = runtime.defaultNode();
        assertTrue(vn.attach(node, cut));
        vn.lost(node.runtimeId(), cut, "its link timed out");
        assertEquals(0, vn.size());
        assertTrue(vn.failed(cut, "its JVMs ended (exit code 0)"), "the lost JVM counts as a failure");
        assertEquals(1, vn.failures().size(), "said once: " + vn.failures());
        assertTrue(
                vn.failures().getFirst().reason().contains("was lost: its link timed out"),
                vn.failures().toString());
    }

    @Test
    void aLaunchThatBroughtItsNodesAndEndedHasNotFailed() {
        final VirtualNode vn = new VirtualNode(new VirtualNodeSpec("vn", 1, false));
        final Launch fine = launch("1");
        vn.add(fine);
        assertTrue(vn.attach(runtime.defaultNode(), fine));
        assertFalse(vn.failed(fine, "its JVMs ended (exit code 0)"));
        assertEquals(List.of(), vn.failures());
    }
}
