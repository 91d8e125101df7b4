package org.troupe.core;

import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.troupe.serialization.SerializationConfig;

/**
 * A Troupe runtime in this JVM for each test, started before it and shut down after it, whether it passed or
 * failed (after the test's own {@code @AfterEach} methods, which may release what a shutdown would wait for):
 *
 * <pre>{@code
 * @RegisterExtension
 * final LocalRuntime local = LocalRuntime.allowingPackage("org.troupe.core");
 * }</pre>
 *
 * A test that needs another configuration {@linkplain #restart restarts} it: the last one started is the one shut
 * down.
 */
final class LocalRuntime implements BeforeEachCallback, AfterEachCallback {
    private final Supplier<CoreConfig> config;
    private TroupeRuntime runtime;

    private LocalRuntime(final Supplier<CoreConfig> config) {
        this.config = config;
    }

    /** A runtime configured as {@code config} says, made anew for each test. */
    static LocalRuntime of(final Supplier<CoreConfig> config) {
        return new LocalRuntime(config);
    }

    /** A runtime whose serialization allows the classes of {@code pkg}, the tests' active objects and values. */
    static LocalRuntime allowingPackage(final String pkg) {
        return of(() -> CoreConfig.builder()
                .serialization(SerializationConfig.builder().allowPackage(pkg).build())
                .build());
    }

    @Override
    public void beforeEach(final ExtensionContext context) {
        runtime = TroupeRuntime.start(config.get());
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

    /** The default node of this test's runtime. */
    Node node() {
        return runtime.defaultNode();
    }

    /** Shuts this test's runtime down (if it is not already) and starts one configured as {@code next} instead. */
    TroupeRuntime restart(final CoreConfig next) {
        runtime.shutdown();
        runtime = TroupeRuntime.start(next);
        return runtime;
    }
}
