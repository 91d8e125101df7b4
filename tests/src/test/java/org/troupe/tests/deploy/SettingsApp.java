package org.troupe.tests.deploy;

import java.time.Duration;
import java.util.List;
import org.troupe.config.TroupeSettings;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;

/**
 * An application run by bin/deploy in the tests: for each node of virtual node workers, what that node's JVM makes
 * of the Troupe settings named in its arguments, and where it listens; a line {@code node VALUE... ADDRESS} each.
 */
public final class SettingsApp {
    private SettingsApp() {}

    /** Lives on a node and says what its JVM sees. */
    public static class Probe {
        public Probe() {}

        /** What this JVM's settings say of each key, or "unset", and where its runtime listens. */
        public String settings(final String[] keys) {
            final StringBuilder b = new StringBuilder();
            for (final String key : keys) {
                b.append(TroupeSettings.load().getString(key, "unset")).append(' ');
            }
            return b.append(TroupeRuntime.get().address()).toString();
        }
    }

    public static void main(final String[] args) {
        final List<Node> nodes = Deployment.current().virtualNode("workers").waitForNodes(2, Duration.ofMinutes(2));
        for (final Node n : nodes) {
            System.out.println(
                    "node " + ActiveObjects.newActive(Probe.class, null, n).settings(args));
        }
    }
}
