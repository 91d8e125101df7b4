package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.NodeLoss;
import org.troupe.deploy.NodeRequest;
import org.troupe.deploy.VirtualNode;
import org.troupe.groups.Group;
import org.troupe.groups.Groups;
import org.troupe.tests.Await;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.core.Result;
import org.troupe.tests.core.Worker;

/**
 * An application adapting to a running deployment with the public API alone: it is told of a node lost, takes the
 * members there out of its group, asks for a replacement and puts a new member on it.
 */
class AdaptingDeploymentTest {
    private static final Path LOCAL = Path.of("../descriptors/local.xml");
    private static final Duration WAIT = Duration.ofMinutes(2);

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    @Test
    void aLostNodeIsToldItsMembersLeaveTheGroupAndARequestedNodeTakesItsPlace() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(LOCAL, Map.of("jvms", "2")).start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("workers");
            final LinkedBlockingQueue<NodeLoss> losses = new LinkedBlockingQueue<>();
            final LinkedBlockingQueue<Node> arrivals = new LinkedBlockingQueue<>();
            vn.onNodeLost(losses::add);
            vn.onNodeAttached(arrivals::add);
            final List<Node> nodes = vn.waitForNodes(2, WAIT);
            assertEquals(2, nodes.size(), d.progress() + " " + d.failures());
            final Worker workers = Groups.newGroup(Worker.class, new Object[][] {{}, {}}, nodes.toArray(Node[]::new));
            final Group<Worker> group = Groups.view(workers);
            assertEquals(2, pids(workers.compute(3)).size());

            final Node victim = nodes.get(1);
            ProcessHandle.of(TroupeRuntime.pidOf(victim.runtimeId()))
                    .orElseThrow()
                    .destroyForcibly();
            final NodeLoss loss = losses.poll(60, TimeUnit.SECONDS);
            assertEquals(victim, loss == null ? null : loss.node(), "told of the killed JVM's node: " + loss);
            assertEquals(List.of(nodes.get(0)), vn.nodes(), "the node has left when the listener is told");
            assertEquals(1, group.removeMembersOn(loss.node()).size(), "its member leaves the group");
            assertEquals(
                    Set.of(TroupeRuntime.pidOf(nodes.get(0).runtimeId())),
                    pids(workers.compute(4)),
                    "the group's calls go to the member left, and none fails");

            final NodeRequest request = vn.request(1);
            final List<Node> replacement = request.await(WAIT);
            assertEquals(1, replacement.size(), request + ": " + vn.failures());
            assertTrue(request.isSettled());
            final Node fresh = replacement.getFirst();
            assertNotEquals(victim.runtimeId(), fresh.runtimeId());
            assertTrue(vn.nodes().contains(fresh), "the new node is the virtual node's: " + vn.nodes());
            // told just after it shows, as the others are
            Await.until(Duration.ofSeconds(10), () -> arrivals.contains(fresh), "the listener to be told of it");
            assertTrue(fresh.name().startsWith(d.id() + "."), "named as the deployment's nodes are: " + fresh);
            group.add(ActiveObjects.newActive(Worker.class, new Object[0], fresh));
            assertEquals(
                    Set.of(TroupeRuntime.pidOf(nodes.get(0).runtimeId()), TroupeRuntime.pidOf(fresh.runtimeId())),
                    pids(workers.compute(5)),
                    "the group's calls reach the new member too");

            assertThrows(IllegalArgumentException.class, () -> vn.request(0));
            d.close();
            IllegalStateException closed = assertThrows(IllegalStateException.class, () -> vn.request(1));
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        }
        DeploymentLeftovers.assertNothingLeft(id);
    }

    /** The processes that computed the members of a result group, every member having succeeded. */
    private static Set<Long> pids(final Result results) {
        final Group<Result> view = Groups.view(results);
        view.waitAll(WAIT);
        assertEquals(List.of(), view.failures());
        return view.members().stream().map(Result::pid).collect(Collectors.toSet());
    }
}
