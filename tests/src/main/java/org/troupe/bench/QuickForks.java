package org.troupe.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Quick mode's isolation: each case runs in a fresh JVM, as JMH forks each benchmark. In one JVM the cases run
 * earlier leave their JIT profiles behind (shared code turns polymorphic, deoptimizes, recompiles); that made a
 * later case up to 2.5 times slower than in a JVM of its own. The implementations of one case still share their
 * JVM, side by side, which is what the comparison needs. A case JVM costs about a second to start and set up.
 *
 * <p>The child runs {@code Bench <suite> --quick --case <name>} with {@link #IN_PROCESS_PROPERTY} set, and writes
 * its figures straight to the same stdout.
 */
final class QuickForks {
    /** Set on a case JVM: measure here instead of forking again. */
    static final String IN_PROCESS_PROPERTY = "troupe.bench.inProcess";

    /**
     * A smaller initial heap than the JMH forks' 2 GB: the pre-touch of the whole initial heap is paid by every
     * case JVM, and quick mode has a minute for all of them. The heap still grows to the same maximum.
     */
    private static final String INITIAL_HEAP = "1g";

    private QuickForks() {}

    static boolean inCaseJvm() {
        return Boolean.getBoolean(IN_PROCESS_PROPERTY);
    }

    /** Runs each case in a JVM of its own, one after the other; fails on the first case JVM that fails. */
    static void run(final String suite, final List<String> cases) throws BenchFailure {
        for (final String caseName : cases) {
            final Process child;
            try {
                child = new ProcessBuilder(command(suite, caseName)).inheritIO().start();
            } catch (final IOException e) {
                throw new BenchFailure("cannot start a JVM for case " + caseName + ": " + e.getMessage(), e);
            }
            // Ctrl-C or a kill of this JVM must not leave a case JVM running.
            final Thread reaper = new Thread(child::destroyForcibly);
            Runtime.getRuntime().addShutdownHook(reaper);
            try {
                final int status = child.waitFor();
                if (status != 0) {
                    throw new BenchFailure(
                            "case " + caseName + " failed in its JVM (exit status " + status + "; see above)");
                }
            } catch (final InterruptedException e) {
                child.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new BenchFailure("interrupted while case " + caseName + " ran", e);
            } finally {
                removeHook(reaper);
            }
        }
    }

    private static void removeHook(final Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException shuttingDown) {
            // The hook is running or has run; nothing to undo.
        }
    }

    private static List<String> command(final String suite, final String caseName) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.forMeasuringJvm(INITIAL_HEAP));
        command.add("-D" + IN_PROCESS_PROPERTY + "=true");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Bench.class.getName());
        command.addAll(List.of(suite, "--quick", "--case", caseName));
        return command;
    }
}
