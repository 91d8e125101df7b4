package org.troupe.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.troupe.bench.serialization.SerializationSuite;

/**
 * Entry point of {@code bin/bench}: {@code Bench <suite> [--quick]}.
 *
 * <p>stdout carries only the figures, one JSON object per line, so that scripts can read it as is. Everything else
 * (progress, JMH's own report, whatever a library prints) goes to stderr: {@link System#out} itself is pointed at
 * stderr before any benchmark code runs, because some libraries print to it (Kryo's minlog, Fory's default logger).
 *
 * <p>Exit status: 0 when every figure was printed, 1 when a benchmark failed (e.g. a round trip came back wrong),
 * 2 on a bad command line.
 */
public final class Bench {
    /** Suites by command-line name; a new suite is one more line here. */
    private static final Map<String, Supplier<Suite>> SUITES = new LinkedHashMap<>();

    static {
        SUITES.put("serialization", SerializationSuite::new);
    }

    private Bench() {
    }

    public static void main(final String[] args) {
        final PrintStream stdout = System.out;
        System.exit(run(args, stdout));
    }

    /** Runs the command line and returns the exit status. */
    static int run(final String[] args, final PrintStream stdout) {
        String suiteName = null;
        boolean quick = false;
        for (final String arg : args) {
            switch (arg) {
                case "--help", "-h" -> {
                    // Asked-for help is the command's output, so it goes to stdout like any CLI's.
                    stdout.print(usage());
                    return 0;
                }
                case "--quick" -> quick = true;
                default -> {
                    if (arg.startsWith("-")) {
                        return usageError("unknown option '" + arg + "'");
                    }
                    if (suiteName != null) {
                        return usageError("one suite at a time (got '" + suiteName + "' and '" + arg + "')");
                    }
                    suiteName = arg;
                }
            }
        }
        if (suiteName == null) {
            return usageError("no suite given");
        }
        final Supplier<Suite> suite = SUITES.get(suiteName);
        if (suite == null) {
            return usageError("unknown suite '" + suiteName + "' (known: " + String.join(", ", SUITES.keySet()) + ")");
        }

        System.setOut(System.err);
        try {
            suite.get().run(quick, new ResultSink(stdout));
            return 0;
        } catch (final BenchFailure e) {
            System.err.println("bench: " + suiteName + ": " + e.getMessage());
            if (e.getCause() != null) {
                e.getCause().printStackTrace();
            }
            return 1;
        } finally {
            stdout.flush();
        }
    }

    private static int usageError(final String message) {
        System.err.println("bench: " + message);
        System.err.print(usage());
        return 2;
    }

    private static String usage() {
        final StringBuilder b = new StringBuilder()
                .append("usage: bench <suite> [--quick]\n")
                .append("  Prints one JSON object per line on stdout: ")
                .append("{\"suite\",\"case\",\"impl\",\"op\",\"ns_per_op\",\"bytes\"}.\n")
                .append("  --quick  warmed in-process harness (about a minute) instead of JMH forks\n")
                .append("  --help   this text\n")
                .append("suites:\n");
        SUITES.forEach((name, suite) -> b.append(String.format("  %-14s %s%n", name, suite.get().summary())));
        return b.toString();
    }
}
