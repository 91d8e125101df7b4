package org.troupe.core;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point of a node JVM: starts this JVM's runtime with one node, offers the node to the parent runtime
 * (proving the deployment secret), and serves until the parent goes away; then the JVM exits by itself, so no
 * orphan is left running.
 */
public final class NodeMain {
    private static final Logger LOG = LoggerFactory.getLogger(NodeMain.class);
    private static final String USAGE = """
        usage: java -cp <troupe class path> org.troupe.core.NodeMain --parent HOST:PORT --name NODE
          Starts a Troupe runtime holding node NODE and registers it with the runtime listening at HOST:PORT.
          The deployment secret comes from troupe.core.secret (environment: TROUPE_CORE_SECRET); the allowed
          classes from troupe.serialization.allowedPackages. The JVM exits when the parent runtime goes away.
        """;

    private NodeMain() {
    }

    public static void main(final String[] args) throws InterruptedException {
        String parent = null;
        String name = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--parent" -> parent = i + 1 < args.length ? args[++i] : null;
                case "--name" -> name = i + 1 < args.length ? args[++i] : null;
                case "--help", "-h" -> {
                    System.err.print(USAGE);
                    return;
                }
                default -> fail("unknown argument " + args[i]);
            }
        }
        if (parent == null || name == null) {
            fail("--parent and --name are required");
        }
        final TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.fromSettings());
        runtime.createNode(name);
        final CountDownLatch parentGone = new CountDownLatch(1);
        final String[] parentId = new String[1];
        runtime.remoting().onPeerLost((id, reason) -> {
            if (id.equals(parentId[0])) {
                LOG.info("Parent runtime {} is gone ({}); node {} stops", id, reason, runtime.id());
                parentGone.countDown();
            }
        });
        try {
            parentId[0] = runtime.offerNode(parent, name);
        } catch (RuntimeException e) {
            LOG.error("Node {} could not register with its parent at {}: {}", name, parent, e.getMessage());
            runtime.shutdown();
            System.exit(2);
        }
        LOG.info("Node {} of runtime {} registered with {} and listens on {}", name, runtime.id(), parent,
            runtime.address());
        parentGone.await();
        runtime.shutdown();
        System.exit(0);
    }

    private static void fail(final String message) {
        System.err.println("troupe node: " + message);
        System.err.print(USAGE);
        System.exit(64);
    }
}
