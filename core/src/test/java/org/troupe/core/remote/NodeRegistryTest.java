package org.troupe.core.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.remote.Remoting.NodeInfo;

/** The nodes other runtimes register here, with the links to them played by a set of runtime ids. */
class NodeRegistryTest {
    private final Set<String> linked = new HashSet<>();
    private String lastRefusal;
    private final NodeRegistry nodes = new NodeRegistry(linked::contains, () -> lastRefusal);

    private static NodeInfo node(final String name, final String runtimeId) {
        return new NodeInfo(name, runtimeId, runtimeId + ".example:7000");
    }

    @Test
    void shouldHandANodeOfferedFromAnotherThreadToTheOneWaitingForIt() throws InterruptedException {
        final AtomicReference<Object> got = new AtomicReference<>();
        final Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                got.set(nodes.await("worker-1", Duration.ofSeconds(30)));
            } catch (RuntimeException e) {
                got.set(e);
            }
        });
        nodes.offered(node("worker-1", "rt-a"), "rt-a at rt-a.example:7000");
        waiter.join();
        assertEquals(node("worker-1", "rt-a"), got.get());
    }

    @Test
    void shouldKeepANodesNameWithItsRuntimeWhileThatRuntimeIsLinked() {
        linked.add("rt-a");
        nodes.offered(node("worker-1", "rt-a"), "rt-a");
        nodes.offered(node("worker-1", "rt-b"), "rt-b");
        assertEquals("rt-a", nodes.await("worker-1", Duration.ZERO).runtimeId());
        nodes.offered(node("worker-1", "rt-a"), "rt-a");
        assertEquals(
                node("worker-1", "rt-a"),
                nodes.await("worker-1", Duration.ZERO),
                "its own runtime may offer it" + " again");
        linked.remove("rt-a");
        nodes.offered(node("worker-1", "rt-b"), "rt-b");
        assertEquals("rt-b", nodes.await("worker-1", Duration.ZERO).runtimeId(), "the holder's link is gone");
    }

    @Test
    void shouldForgetTheNodesOfALostRuntimeOnly() {
        nodes.offered(node("worker-1", "rt-a"), "rt-a");
        nodes.offered(node("worker-2", "rt-b"), "rt-b");
        nodes.forget("rt-a");
        final TroupeException e = assertThrows(TroupeException.class, () -> nodes.await("worker-1", Duration.ZERO));
        assertEquals("No node called worker-1 registered within 0 ms (registered: [worker-2])", e.getMessage());
    }

    @Test
    void shouldNameTheLastRefusedConnectionWhenNoNodeCame() {
        lastRefusal = "/10.0.0.7:41000";
        final TroupeException e = assertThrows(TroupeException.class, () -> nodes.await("worker-1", Duration.ZERO));
        assertTrue(
                e.getMessage()
                        .endsWith("; the last connection this runtime refused came from /10.0.0.7:41000: a"
                                + " node JVM needs this runtime's secret (troupe.core.secret or troupe.core.secretFile) and Troupe"
                                + " version"),
                e.getMessage());
    }

    @Test
    void shouldTellEveryListenerOfANodeWhenOneFailsAndNoneOnceRemoved() {
        final List<String> heard = new ArrayList<>();
        nodes.onRegistered(n -> {
            throw new IllegalStateException("a listener's bug");
        });
        final Runnable remove = nodes.onRegistered(n -> heard.add(n.name()));
        nodes.offered(node("worker-1", "rt-a"), "rt-a");
        remove.run();
        nodes.offered(node("worker-2", "rt-a"), "rt-a");
        assertEquals(List.of("worker-1"), heard);
    }

    @Test
    void shouldNotTellListenersOfARefusedOffer() {
        final List<String> heard = new ArrayList<>();
        linked.add("rt-a");
        nodes.offered(node("worker-1", "rt-a"), "rt-a");
        nodes.onRegistered(n -> heard.add(n.runtimeId()));
        nodes.offered(node("worker-1", "rt-b"), "rt-b");
        assertEquals(List.of(), heard);
    }

    @Test
    void shouldPrintANamePeersChoseOnOneLine() {
        assertEquals("worker?[main] WARN forged", NodeRegistry.printable("worker\n[main] WARN forged"));
    }
}
