package org.troupe.tests.net;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.DeploymentFailure;
import org.troupe.deploy.VirtualNode;

/**
 * The deploying JVM of SshNamespacesTest, run in a namespace of its own with the settings of its environment: it
 * deploys the descriptor {@code args[0]} (virtual node {@code hops}) and, in mode {@code calls}, has active objects
 * on its nodes and on itself call each other; in mode {@code cut}, it waits for its nodes to be lost (the test cuts
 * the network), then for a line on its standard input before it closes the deployment. Each fact goes to standard
 * output as a line {@code @ key value}; the test judges them.
 */
public final class DeployingLauncher {
    private static final Duration WAIT = Duration.ofSeconds(90);

    private DeployingLauncher() {}

    public static void main(final String[] args) throws Exception {
        final Deployment d = Deployment.load(Path.of(args[0]));
        try {
            d.start();
        } catch (TroupeException e) {
            say("refused", e.getMessage());
            System.exit(2);
        }
        try (d) {
            say("id", d.id());
            final TroupeRuntime runtime = TroupeRuntime.get();
            say("parent", runtime.id());
            final VirtualNode vn = d.virtualNode("hops");
            final List<Node> nodes = vn.waitForNodes(vn.wanted(), WAIT);
            for (int i = 0; i < nodes.size(); i++) {
                say("node" + i, nodes.get(i).address() + " " + nodes.get(i).runtimeId());
            }
            if (nodes.size() < vn.wanted()) {
                say("missing", d.progress() + " " + d.failures());
                return;
            }
            if (args[1].equals("calls")) {
                calls(runtime, nodes);
            } else {
                cut(d, nodes.size());
            }
        } finally {
            say("closed", String.valueOf(d.failures()));
        }
    }

    /** Every node and this JVM call each other, and node 1 calls node 0 back through what node 0 sent it. */
    private static void calls(final TroupeRuntime runtime, final List<Node> nodes) {
        final Hop home = ActiveObjects.newActive(Hop.class, null, runtime.defaultNode());
        final List<Hop> hops = new ArrayList<>();
        for (final Node n : nodes) {
            hops.add(ActiveObjects.newActive(Hop.class, null, n));
        }
        for (int i = 0; i < hops.size(); i++) {
            say("parent->" + i, hops.get(i).where());
            say(i + "->parent", hops.get(i).call(home));
            for (int j = 0; j < hops.size(); j++) {
                if (j != i) {
                    say(i + "->" + j, hops.get(i).call(hops.get(j)));
                }
            }
        }
        say("0->1->0", hops.get(0).introduceTo(hops.get(1)));
        say("done", "");
    }

    /** Waits until the {@code n} nodes are lost, says so, then waits for the test's word to close. */
    private static void cut(final Deployment d, final int n) throws Exception {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (d.failures().stream().mapToInt(DeploymentFailure::nodesMissing).sum() < n
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        say("lost", String.valueOf(d.failures()));
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }

    /** An application for {@code bin/deploy --run}: says how many nodes its deployment gave virtual node hops. */
    public static final class Nodes {
        private Nodes() {}

        public static void main(final String[] args) {
            say("nodes", String.valueOf(Deployment.current().virtualNode("hops").size()));
        }
    }

    private static void say(final String key, final String value) {
        System.out.println("@ " + key + " " + value);
        System.out.flush();
    }
}
