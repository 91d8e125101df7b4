package org.troupe.tests;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.troupe.core.TroupeRuntime;

/**
 * This JVM's runtime as the node JVMs' parent ({@link NodeJvms#startParent()}), started once before the tests of a
 * class and shut down after them, whether they passed or failed:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ParentRuntime parent = new ParentRuntime();
 * }</pre>
 *
 * Extensions registered before it are started before it and stopped after it.
 */
public final class ParentRuntime implements BeforeAllCallback, AfterAllCallback {
    private TroupeRuntime runtime;

    @Override
    public void beforeAll(final ExtensionContext context) {
        runtime = NodeJvms.startParent();
    }

    @Override
    public void afterAll(final ExtensionContext context) {
        if (runtime != null) { // null when an extension before it skipped or failed the class
            runtime.shutdown();
            runtime = null;
        }
    }

    /** The parent runtime of this class's tests. */
    public TroupeRuntime runtime() {
        return runtime;
    }
}
