package org.troupe.tests.deploy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.troupe.deploy.Deployment;

/**
 * Turns on the relay of node JVMs' output for the deployments started meanwhile, and catches what this JVM prints on
 * its standard output and error, until closed.
 */
final class RelayedOutput implements AutoCloseable {
    private final PrintStream out = System.out;
    private final PrintStream err = System.err;
    private final ByteArrayOutputStream caughtOut = new ByteArrayOutputStream();
    private final ByteArrayOutputStream caughtErr = new ByteArrayOutputStream();

    RelayedOutput() {
        System.setProperty(Deployment.RELAY_OUTPUT_PROP_NAME, "true");
        System.setOut(new PrintStream(caughtOut, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(caughtErr, true, StandardCharsets.UTF_8));
    }

    /** The lines caught on standard error so far. */
    List<String> errLines() {
        synchronized (System.err) {
            return caughtErr.toString(StandardCharsets.UTF_8).lines().toList();
        }
    }

    /** Waits, at most a minute, until a caught line of standard error matches each of {@code patterns}. */
    boolean awaitErrLines(final String... patterns) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            final List<String> lines = errLines();
            if (List.of(patterns).stream().allMatch(p -> lines.stream().anyMatch(l -> l.matches(p)))) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    @Override
    public void close() {
        System.clearProperty(Deployment.RELAY_OUTPUT_PROP_NAME);
        System.setOut(out);
        System.setErr(err);
        out.print(caughtOut.toString(StandardCharsets.UTF_8));
        err.print(caughtErr.toString(StandardCharsets.UTF_8));
    }
}
