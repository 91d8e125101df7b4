package org.troupe.tests;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;
import org.troupe.serialization.SerializationConfig;

/** Node JVMs started by a test, with this test's class path; all of them are killed by {@link #close()}. */
public final class NodeJvms implements AutoCloseable {
    public static final String SECRET = "multi-jvm-test-secret-0123456789ab"; // a secret needs 32 characters or more
    private final List<Process> processes = new ArrayList<>();
    private final Path logs;

    /**
     * Starts this JVM's runtime as the node JVMs' parent: the same secret, the tests' package allowed, and the
     * node JVMs' quick heartbeats, so a dead peer is noticed within the tests' time.
     */
    public static TroupeRuntime startParent() {
        return TroupeRuntime.start(CoreConfig.builder()
                .serialization(SerializationConfig.builder()
                        .allowPackage("org.troupe.tests")
                        .build())
                .secret(SECRET)
                // the build's second run of some suites chooses TCP (tests/pom.xml)
                .transport(System.getProperty(CoreConfig.TRANSPORT_PROP_NAME, "auto"))
                .heartbeat(Duration.ofMillis(200))
                .peerTimeout(Duration.ofMillis(3000))
                .build());
    }

    public NodeJvms(final String testName) throws IOException {
        this.logs = Files.createDirectories(Path.of("target", "node-logs", testName));
    }

    /** Starts {@code org.troupe.core.NodeMain} registering node {@code name} with the runtime at {@code parent}. */
    public Process start(final String name, final String parent, final String secret) throws IOException {
        final String java =
                Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final ProcessBuilder pb = new ProcessBuilder(
                java,
                "-Xmx256m",
                "--add-exports", // Agrona's rings: without it the node's links to this host stay on TCP
                "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "org.troupe.core.NodeMain",
                "--parent",
                parent,
                "--name",
                name);
        final Map<String, String> env = pb.environment();
        env.put("TROUPE_CORE_SECRET", secret);
        env.put("TROUPE_SERIALIZATION_ALLOWEDPACKAGES", "org.troupe.tests");
        env.put("TROUPE_CORE_HEARTBEATMILLIS", "200");
        env.put("TROUPE_CORE_PEERTIMEOUTMILLIS", "3000");
        pb.redirectErrorStream(true).redirectOutput(logs.resolve(name + ".log").toFile());
        final Process p = pb.start();
        processes.add(p);
        return p;
    }

    public Process start(final String name, final String parent) throws IOException {
        return start(name, parent, SECRET);
    }

    public String log(final String name) throws IOException {
        final File f = logs.resolve(name + ".log").toFile();
        return f.exists() ? Files.readString(f.toPath()) : "";
    }

    @Override
    public void close() {
        for (final Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        try {
            for (final Process p : processes) {
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // they were all killed; only the wait for their end is cut short
        }
    }
}
