package org.troupe.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.troupe.core.Node;
import org.troupe.core.NodeMain;
import org.troupe.core.TroupeRuntime;

/**
 * A node JVM on this machine ({@link NodeMain}, with this JVM's class path and measuring flags) registered with
 * this JVM's runtime. {@link #close()} kills it; so does this JVM's end (it exits when its parent is gone, and a
 * shutdown hook kills it if this JVM is stopped first).
 */
public final class RemoteNode implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Thread reaper;
    private final Node node;

    private RemoteNode(final Process process, final Thread reaper, final Node node) {
        this.process = process;
        this.reaper = reaper;
        this.node = node;
    }

    /** Starts a node JVM called {@code name} whose runtime allows the classes of {@code allowedPackage}. */
    public static RemoteNode start(
            final TroupeRuntime runtime, final String secret, final String name, final String allowedPackage)
            throws BenchFailure {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.forMeasuringJvm("512m"));
        command.add("-Djava.rmi.server.hostname=127.0.0.1"); // RMI stubs point at loopback, nothing else
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                NodeMain.class.getName(),
                "--parent",
                runtime.listen(),
                "--name",
                name));
        final ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD) // stdout carries only figures
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("TROUPE_CORE_SECRET", secret);
        pb.environment().put("TROUPE_SERIALIZATION_ALLOWEDPACKAGES", allowedPackage);
        // Both ends of a link must agree on it: a run with -Dtroupe.core.authenticateFrames=false measures bare frames.
        pb.environment()
                .put(
                        "TROUPE_CORE_AUTHENTICATEFRAMES",
                        String.valueOf(runtime.config().authenticateFrames()));
        final Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new BenchFailure("cannot start the node JVM: " + e.getMessage(), e);
        }
        final Thread reaper = new Thread(process::destroyForcibly);
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            return new RemoteNode(process, reaper, runtime.awaitNode(name, START_TIMEOUT));
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw new BenchFailure(
                    "the node JVM did not register within " + START_TIMEOUT.toSeconds() + " s: " + e.getMessage(), e);
        }
    }

    public Node node() {
        return node;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (IllegalStateException shuttingDown) {
            // The hook runs anyway.
        }
    }
}
