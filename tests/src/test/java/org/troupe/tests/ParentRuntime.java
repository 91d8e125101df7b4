package org.troupe.tests;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;

/**
 * This JVM's runtime as the node JVMs' parent ({@link NodeJvms#startParent()}), started once before the tests of a
 * class and shut down after them, whether they passed or failed; with {@link #withNodeJvms}, node JVMs too, killed
 * after the parent is shut down:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ParentRuntime parent = ParentRuntime.withNodeJvms("n1", "n2");
 * }</pre>
 *
 * Extensions registered before it are started before it and stopped after it.
 */
public final class ParentRuntime implements BeforeAllCallback, AfterAllCallback {
    /** How long a node JVM started before the tests may take to register. */
    private static final Duration REGISTRATION = Duration.ofSeconds(60);

    private final boolean nodeJvms;
    private final List<String> names;
    private final Map<String, Node> nodes = new HashMap<>();
    private TroupeRuntime runtime;
    private NodeJvms jvms;

    /** The parent runtime alone. */
    public ParentRuntime() {
        this(false, List.of());
    }

    private ParentRuntime(final boolean nodeJvms, final List<String> names) {
        this.nodeJvms = nodeJvms;
        this.names = names;
    }

    /**
     * The parent runtime and a node JVM registering a node of each of these names with it, all registered before
     * the tests; the tests may start more through {@link #jvms()}.
     */
    public static ParentRuntime withNodeJvms(final String... names) {
        return new ParentRuntime(true, List.of(names));
    }

    @Override
    public void beforeAll(final ExtensionContext context) throws IOException {
        runtime = NodeJvms.startParent();
        if (nodeJvms) {
            jvms = new NodeJvms(context.getRequiredTestClass().getSimpleName());
            for (final String name : names) {
                jvms.start(name, runtime.listen());
            }
            for (final String name : names) {
                nodes.put(name, runtime.awaitNode(name, REGISTRATION));
            }
        }
    }

    @Override
    public void afterAll(final ExtensionContext context) {
        try {
            if (runtime != null) { // null when an extension before it skipped or failed the class
                runtime.shutdown();
            }
        } finally {
            runtime = null;
            nodes.clear();
            if (jvms != null) {
                jvms.close();
                jvms = null;
            }
        }
    }

    /** The parent runtime of this class's tests. */
    public TroupeRuntime runtime() {
        return runtime;
    }

    /** The node JVMs of this class's tests, to start more or read their logs. */
    public NodeJvms jvms() {
        return jvms;
    }

    /** The node of this name that a node JVM started before the tests registered. */
    public Node node(final String name) {
        final Node n = nodes.get(name);
        if (n == null) {
            throw new IllegalArgumentException("No node JVM named " + name + " was started before the tests: " + names);
        }
        return n;
    }
}
