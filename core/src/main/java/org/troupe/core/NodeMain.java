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
        usage: java -cp <troupe class path> org.troupe.core.NodeMain --parent HOST:PORT
                    (--name NODE ... | --name-prefix PREFIX [--nodes K])
          Starts a Troupe runtime holding the given nodes and registers them with the runtime listening at
          HOST:PORT. --name may be repeated; --name-prefix makes K nodes (default 1) named PREFIX<runtime id>-<i>,
          unique without coordination, as the JVMs of a batch job need.
          The deployment secret comes from troupe.core.secretFile (a file only its owner may read) or
          troupe.core.secret (environment: TROUPE_CORE_SECRET); the allowed classes from
          troupe.serialization.allowedPackages. The JVM exits when the parent runtime goes away.
        """;

    private NodeMain() {
    }

    public static void main(final String[] args) throws InterruptedException {
        String parent = null;
        final java.util.List<String> names = new java.util.ArrayList<>();
        String prefix = null;
        int count = 1;
        for (int i = 0; i < args.length; i++) {
            final String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--parent" -> parent = value;
                case "--name" -> names.add(value);
                case "--name-prefix" -> prefix = value;
                case "--nodes" -> count = value != null && value.matches("[1-9][0-9]{0,3}") ? Integer.parseInt(value)
                    : fail("--nodes takes a count from 1 to 9999, not " + value);
                case "--help", "-h" -> {
                    System.err.print(USAGE);
                    return;
                }
                default -> fail("unknown argument " + args[i]);
            }
            i++;
        }
        if (parent == null || names.contains(null) || (prefix == null) == names.isEmpty()) {
            fail("--parent and either --name or --name-prefix are required, each with a value");
        }
        final CoreConfig config;
        try {
            config = CoreConfig.fromSettings();
        } catch (IllegalArgumentException e) { // a setting the user can fix: say which, without a stack trace
            System.err.println("troupe node: " + e.getMessage());
            System.exit(2);
            return;
        }
        final TroupeRuntime runtime = TroupeRuntime.start(config);
        for (int k = 0; prefix != null && k < count; k++) {
            names.add(prefix + runtime.id() + "-" + k);
        }
        names.forEach(runtime::createNode);
        final CountDownLatch parentGone = new CountDownLatch(1);
        // The parent may drop the link before offerNode returns (it needs no more nodes): every loss is noted, and
        // checked again once the parent's id is known.
        final java.util.Set<String> lost = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final java.util.concurrent.atomic.AtomicReference<String> parentId =
            new java.util.concurrent.atomic.AtomicReference<>();
        runtime.remoting().onPeerLost((id, reason) -> {
            lost.add(id);
            if (id.equals(parentId.get())) {
                LOG.info("Parent runtime {} is gone ({}); node {} stops", id, reason, runtime.id());
                parentGone.countDown();
            }
        });
        try {
            for (final String name : names) {
                parentId.set(runtime.offerNode(parent, name));
                if (lost.contains(parentId.get())) {
                    parentGone.countDown();
                    break;
                }
            }
        } catch (RuntimeException e) {
            LOG.error("Nodes {} could not register with their parent at {}: {}", names, parent, e.getMessage());
            runtime.shutdown();
            System.exit(2);
        }
        LOG.info("Nodes {} of runtime {} registered with {} and listen on {}", names, runtime.id(), parent,
            runtime.address());
        parentGone.await();
        runtime.shutdown();
        System.exit(0);
    }

    private static int fail(final String message) {
        System.err.println("troupe node: " + message);
        System.err.print(USAGE);
        System.exit(64);
        return 0;
    }
}
