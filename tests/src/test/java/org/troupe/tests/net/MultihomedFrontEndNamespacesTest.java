package org.troupe.tests.net;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A launcher on a front-end with two networks: a campus network on its first interface (which the compute nodes do
 * not reach) and the cluster network. A 2-node Slurm job, with no address setting, reaches it on the second:
 * its JVMs try each of the front-end's addresses and register with the one that answers. Skipped (one line)
 * without root, {@code ip netns} or Slurm.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultihomedFrontEndNamespacesTest {
    private static final String SUBNET = "10.213.22";
    private static final String CAMPUS = "10.213.23.1";
    private static NamespaceSlurm slurm;

    @BeforeAll
    static void cluster() throws Exception {
        final String unavailable = NamespaceSlurm.unavailable(false);
        Assumptions.assumeTrue(unavailable == null, unavailable);
        slurm = NamespaceSlurm.start(SUBNET, List.of("a"), false, CAMPUS);
    }

    @AfterAll
    static void stop() {
        if (slurm != null) {
            slurm.close();
        }
    }

    @Test
    void aSlurmJobFromAFrontEndWithTwoNetworksReachesItOnTheClusterNetwork() throws Exception {
        final NamespaceSlurm.Cluster a = slurm.cluster(0);
        try (LauncherRun run = new LauncherRun(
                slurm, "multihomed", "hops", LauncherRun.descriptor("slurm.xml"), "2", "nodes=2", "tasks=2")) {
            final Map<String, String> facts = run.await("up");
            LauncherRun.assertHops(facts, List.of(a.nodeAddresses(), a.nodeAddresses()));
            run.closeAndCheck();
        }
    }
}
