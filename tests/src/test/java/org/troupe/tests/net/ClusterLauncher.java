package org.troupe.tests.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.troupe.apps.jem3d.Adapt;
import org.troupe.apps.jem3d.Jem3dOptions;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.apps.jem3d.RunStatus;
import org.troupe.core.ActiveObjects;
import org.troupe.core.CoreConfig;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.tests.jem3d.Jem3dTesting;

/**
 * The launcher of the namespace Slurm tests, run in the launcher's namespace ({@link NamespaceSlurm#launcher}):
 * {@code hops DESCRIPTOR NODES [VAR=VALUE...]} deploys the descriptor's virtual node "jem3d", waits for NODES nodes
 * and has active objects on them and here call each other; {@code jem3d DESCRIPTOR NODES ...} runs Jem3D on them;
 * {@code jem3d-cut DESCRIPTOR NODES ...} runs a longer Jem3D, says {@code @ stepping} once it steps (the test then
 * cuts a cluster off), and says the run's events once it has ended anyway.
 * Each fact goes to standard output as a line {@code @ key value}; the test judges them. After {@code @ up} it waits
 * for a line on its standard input (the test looks at the jobs meanwhile), says the deployment's failures, closes
 * it, says {@code @ closed} and waits for its input to end (the test looks at what is left).
 */
public final class ClusterLauncher {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Mesh MESH = new Mesh(9, 8, 7);
    private static final int STEPS = 15;

    private ClusterLauncher() {}

    public static void main(final String[] args) throws IOException {
        final TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.fromSettings());
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            final int wanted = Integer.parseInt(args[2]);
            final Map<String, String> vars = new HashMap<>(Map.of("vn", "jem3d"));
            for (int i = 3; i < args.length; i++) {
                vars.put(args[i].substring(0, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
            }
            try (Deployment d = Deployment.load(Path.of(args[1]), vars).start()) {
                say("listen", runtime.listen()); // where the deployment chose: the clusters reach it there
                say("id", d.id());
                try {
                    switch (args[0]) {
                        case "jem3d" -> jem3d(d, wanted);
                        case "jem3d-cut" -> jem3dThroughACut(d, wanted);
                        default -> hops(runtime, d, wanted);
                    }
                } catch (RuntimeException | AssertionError e) {
                    say("failed", e + " " + d.progress() + " " + d.failures());
                }
                say("up", "");
                in.readLine();
                say("failures", d.failures().toString()); // none, unless a node was lost while the test looked
            }
            say("closed", "");
            in.readLine();
        } finally {
            runtime.shutdown();
        }
    }

    /** Every node (in the order of their names: of their launches) and here call each other. */
    private static void hops(final TroupeRuntime runtime, final Deployment d, final int wanted) {
        final List<Node> nodes = awaitNodes(d, wanted);
        final Hop home = ActiveObjects.newActive(Hop.class, null, runtime.defaultNode());
        final List<Hop> hops = new ArrayList<>();
        for (final Node n : nodes) {
            hops.add(ActiveObjects.newActive(Hop.class, null, n));
        }
        say("home", runtime.id());
        for (int i = 0; i < hops.size(); i++) {
            say("home->" + i, hops.get(i).where());
            say(i + "->home", hops.get(i).call(home));
            for (int j = 0; j < hops.size(); j++) {
                if (i != j) {
                    say(i + "->" + j, hops.get(i).call(hops.get(j))); // at the address the launcher knows j by
                }
            }
        }
        // node 1 calls node 0 back through the reference node 0 sent it
        say("0->1->0", hops.get(0).introduceTo(hops.get(1)));
        say("done", "");
    }

    /**
     * Jem3D divided over the nodes, which must compute the sequential run's fields bit for bit, as
     * Jem3dMultiClusterTest has it.
     */
    private static void jem3d(final Deployment d, final int wanted) {
        final Jem3dOptions options = Jem3dTesting.options(MESH, STEPS)
                .withNodes(wanted, Adapt.DIVIDE, wanted)
                .withTimeout(WAIT);
        final Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
        final Jem3dRun.Placement p = Jem3dRun.place(options, d.virtualNode(Jem3dRun.VIRTUAL_NODE), lines);
        sayNodes(p.nodes());
        say("division", p.decision());
        final Jem3dReport divided = new Jem3dRun(options, lines).keepFields().run(p);
        Jem3dTesting.assertSameRun(Jem3dTesting.sequential(MESH, STEPS), divided);
        say("jem3d", "the sequential fields on " + divided.nodes() + " nodes");
    }

    /**
     * Jem3D over the nodes for long enough that the test cuts a cluster off while it steps: the run loses that
     * cluster's node, goes on without it (a replacement, or the nodes left) from its last checkpoint, and ends with
     * the sequential run's fields all the same.
     */
    private static void jem3dThroughACut(final Deployment d, final int wanted) {
        final int steps = 6_000;
        final Jem3dOptions options = Jem3dTesting.options(MESH, steps)
                .withNodes(wanted, Adapt.DIVIDE, wanted)
                .withTimeout(WAIT)
                .withCheckpoints(50, null);
        final Jem3dTesting.Lines lines = new Jem3dTesting.Lines() {
            private boolean said;

            @Override
            public void progress(final RunStatus status) {
                super.progress(status);
                if (!said && status.stepsDone() >= 100) {
                    said = true;
                    say("stepping", String.valueOf(status.stepsDone()));
                }
            }
        };
        final Jem3dReport report = new Jem3dRun(options, lines).keepFields().run(d);
        say("events", report.events().toString());
        Jem3dTesting.assertSameRun(Jem3dTesting.sequential(MESH, steps), report);
        say("jem3d", "the sequential fields on " + report.nodes() + " nodes");
    }

    private static List<Node> awaitNodes(final Deployment d, final int wanted) {
        final List<Node> nodes = d.virtualNode("jem3d").waitForNodes(wanted, WAIT);
        if (nodes.size() < wanted) {
            throw new IllegalStateException(nodes.size() + " of " + wanted + " nodes came");
        }
        return sayNodes(nodes);
    }

    /** Says each node as {@code nodeI ADDRESS RUNTIME NAME}, in the order of their names; returns them so. */
    private static List<Node> sayNodes(final List<Node> nodes) {
        final List<Node> sorted =
                nodes.stream().sorted(Comparator.comparing(Node::name)).toList();
        for (int i = 0; i < sorted.size(); i++) {
            final Node n = sorted.get(i);
            say("node" + i, n.address() + " " + n.runtimeId() + " " + n.name());
        }
        return sorted;
    }

    private static void say(final String key, final String value) {
        System.out.println("@ " + key + " " + value);
        System.out.flush();
    }
}
