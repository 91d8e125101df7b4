package org.troupe.tests.net;

import java.time.Duration;
import org.troupe.core.ActiveObjects;
import org.troupe.core.CoreConfig;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;

/**
 * The parent runtime of NetworkNamespacesTest, run in a namespace of its own with the settings of its environment:
 * prints where it listens, waits for the nodes named in its arguments, and has active objects on them and on
 * itself call each other. Each fact goes to standard output as a line {@code @ key value}; the test judges them.
 */
public final class HopParent {
    private HopParent() {}

    public static void main(final String[] args) {
        final TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.fromSettings());
        try {
            say("listen", runtime.listen());
            if (args.length == 0) {
                Thread.sleep(Long.MAX_VALUE); // the test stops it: it only had to say where it listens
            }
            final Node n1 = runtime.awaitNode(args[0], Duration.ofSeconds(60));
            final Node n2 = runtime.awaitNode(args[1], Duration.ofSeconds(60));
            say("node1", n1.address() + " " + n1.runtimeId());
            say("node2", n2.address() + " " + n2.runtimeId());
            final Hop h1 = ActiveObjects.newActive(Hop.class, null, n1);
            final Hop h2 = ActiveObjects.newActive(Hop.class, null, n2);
            final Hop home = ActiveObjects.newActive(Hop.class, null, runtime.defaultNode());
            say("parent", runtime.id());
            say("parent->1", h1.where());
            say("parent->2", h2.where());
            say("1->parent", h1.call(home));
            say("2->parent", h2.call(home));
            say("1->2", h1.call(h2)); // node 1 dials node 2 at the address the parent knows it by
            say("2->1", h2.call(h1));
            say("1->2->1", h1.introduceTo(h2)); // node 2 calls node 1 back through what node 1 sent it
            say("done", "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            runtime.shutdown(); // the node JVMs exit when their parent is gone
        }
    }

    private static void say(final String key, final String value) {
        System.out.println("@ " + key + " " + value);
        System.out.flush();
    }
}
