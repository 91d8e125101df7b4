package org.troupe.groups;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.troupe.core.CoreConfig;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.serialization.SerializationConfig;

/**
 * A Troupe runtime in this JVM for each test, allowing the classes of {@code org.troupe.groups}, with its default
 * node and the other nodes named: started before the test, shut down after it whether it passed or failed (after
 * the test's own {@code @AfterEach} methods, which may release members a shutdown would wait for):
 *
 * <pre>{@code
 * @RegisterExtension
 * final LocalNodes local = LocalNodes.defaultAnd("second");
 * }</pre>
 */
final class LocalNodes implements BeforeEachCallback, AfterEachCallback {
    private final String[] more;
    private TroupeRuntime runtime;
    private Node[] nodes;

    private LocalNodes(final String[] more) {
        this.more = more.clone();
    }

    /** The runtime's default node alone. */
    static LocalNodes defaultOnly() {
        return new LocalNodes(new String[0]);
    }

    /** The runtime's default node, then a node of each of these names, in this order. */
    static LocalNodes defaultAnd(final String... more) {
        return new LocalNodes(more);
    }

    @Override
    public void beforeEach(final ExtensionContext context) {
        runtime = TroupeRuntime.start(CoreConfig.builder()
                .serialization(SerializationConfig.builder()
                        .allowPackage("org.troupe.groups")
                        .build())
                .build());
        final Node[] started = new Node[1 + more.length];
        started[0] = runtime.defaultNode();
        for (int i = 0; i < more.length; i++) {
            started[i + 1] = runtime.createNode(more[i]);
        }
        nodes = started;
    }

    @Override
    public void afterEach(final ExtensionContext context) {
        if (runtime != null) {
            runtime.shutdown();
        }
    }

    /** This test's runtime. */
    TroupeRuntime runtime() {
        return runtime;
    }

    /** This test's nodes, the default one first; the array is the test's to pass on, not to change. */
    Node[] nodes() {
        return nodes;
    }
}
