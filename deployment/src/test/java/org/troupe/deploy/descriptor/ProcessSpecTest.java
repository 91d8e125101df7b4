package org.troupe.deploy.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A chain changed to offer more nodes of the same ({@link ProcessSpec#withNodes}). */
class ProcessSpecTest {
    private static ProcessSpec.Jvm jvms(final int count, final int nodesPerJvm) {
        return new ProcessSpec.Jvm("jvms", "", "", List.of("-Xmx1g"), Map.of(), count, nodesPerJvm);
    }

    @Test
    void jvmsAreCountedInWholeJvmsBehindLocalAndSsh() {
        ProcessSpec.Local local = new ProcessSpec.Local("here", jvms(4, 1));
        assertEquals(new ProcessSpec.Local("here", jvms(1, 1)), local.withNodes(1));
        assertEquals(6, new ProcessSpec.Local("here", jvms(1, 2)).withNodes(5).nodesOffered(), "3 JVMs of 2 nodes");
        ProcessSpec.Ssh ssh =
                new ProcessSpec.Ssh("h", "127.0.0.1", 22, "u", "", ProcessSpec.KnownHosts.STRICT, true, jvms(8, 1));
        ProcessSpec.Ssh two = ssh.withNodes(2);
        assertEquals(jvms(2, 1), two.child(), "the JVMs alone change");
        assertEquals(ssh.host(), two.host());
        assertEquals(ssh.stage(), two.stage());
    }

    @Test
    void batchJobsBookWhatTheNodesNeed() {
        ProcessSpec.Pbs pbs = new ProcessSpec.Pbs("q", 8, 4, "01:00:00", "batch", jvms(2, 1));
        ProcessSpec.Pbs smaller = pbs.withNodes(3);
        assertEquals(2, smaller.nodes(), "2 JVMs per booked node: 2 nodes for 3");
        assertEquals(4, smaller.processorsPerNode());
        assertEquals("batch", smaller.queue());
        ProcessSpec.Slurm slurm = new ProcessSpec.Slurm("s", 2, 8, "00:10:00", "", jvms(1, 1));
        ProcessSpec.Slurm one = slurm.withNodes(1);
        assertEquals(1, one.tasks());
        assertEquals(1, one.nodes(), "no more nodes booked than tasks");
        ProcessSpec.Slurm many = slurm.withNodes(5);
        assertEquals(5, many.tasks());
        assertEquals(2, many.nodes(), "no more nodes booked than the descriptor's");
    }
}
