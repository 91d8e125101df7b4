package org.troupe.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.troupe.bench.core.CoreSuite;
import org.troupe.bench.deploy.DeploySuite;
import org.troupe.bench.groups.GroupsSuite;
import org.troupe.bench.jem3d.Jem3dSuite;
import org.troupe.bench.monitor.MonitorSuite;
import org.troupe.bench.mpi.MpiSuite;
import org.troupe.bench.nozzle.NozzleSuite;
import org.troupe.bench.serialization.SerializationSuite;

/**
 * Entry point of {@code bin/bench}: {@code Bench <suite> [--quick] [--case NAME]...}.
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
        SUITES.put("core", CoreSuite::new);
        SUITES.put("groups", GroupsSuite::new);
        SUITES.put("deploy", DeploySuite::new);
        SUITES.put("jem3d", Jem3dSuite::new);
        SUITES.put("mpi", MpiSuite::new);
        SUITES.put("nozzle", NozzleSuite::new);
        SUITES.put("monitor", MonitorSuite::new);
    }

    private Bench() {}

    public static void main(final String[] args) {
        final PrintStream stdout = System.out;
        System.exit(run(args, stdout));
    }

    /** Runs the command line and returns the exit status. */
    static int run(final String[] args, final PrintStream stdout) {
        String suiteName = null;
        boolean quick = false;
        final List<String> cases = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            final String arg = args[i];
            switch (arg) {
                case "--help", "-h" -> {
                    // Asked-for help is the command's output, so it goes to stdout like any CLI's.
                    stdout.print(usage());
                    return 0;
                }
                case "--quick" -> quick = true;
                case "--case" -> {
                    if (i + 1 == args.length) {
                        return usageError("--case needs a case name");
                    }
                    cases.add(args[++i]);
                }
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
        final Supplier<Suite> factory = SUITES.get(suiteName);
        if (factory == null) {
            return usageError("unknown suite '" + suiteName + "' (known: " + String.join(", ", SUITES.keySet()) + ")");
        }
        final Suite suite = factory.get();
        for (final String caseName : cases) {
            if (!suite.cases().contains(caseName)) {
                return usageError("suite " + suiteName + " has no case '" + caseName + "' (known: "
                        + String.join(", ", suite.cases()) + ")");
            }
        }
        final List<String> selected = cases.isEmpty() ? suite.cases() : cases;

        System.setOut(System.err);
        try {
            if (quick && !QuickForks.inCaseJvm()) {
                QuickForks.run(suiteName, selected);
            } else {
                if (quick) {
                    QuickHarness.warnAboutJvmSettings();
                }
                suite.run(quick, selected, new ResultSink(stdout));
            }
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
                .append("usage: bench <suite> [--quick] [--case NAME]...\n")
                .append("  Prints one JSON object per line on stdout:\n")
                .append("    serialization: {\"suite\",\"case\",\"impl\",\"op\",\"ns_per_op\",\"bytes\"}\n")
                .append("    core:          {\"suite\",\"case\",\"impl\",\"ns_per_op\",\"ops_per_s\",\"p50_ns\",")
                .append("\"p99_ns\"} (endpoint-bw-remote and frame-auth-bw add \"MBps\")\n")
                .append("                   {\"suite\",\"case\":\"call-hops-remote\",\"impl\",\"hop\",\"ns_per_op\",")
                .append("\"p50_ns\",\"p99_ns\",\"calls\"} (one row per hop, then \"hop\":\"round trip\")\n")
                .append("    groups:        {\"suite\",\"case\",\"impl\",\"ns_per_op\",\"bytes_serialized\"}\n")
                .append("    deploy:        {\"suite\",\"case\",\"impl\",\"runs\",\"acquire_ms_median\",")
                .append("\"acquire_ms_min\",\"acquire_ms_max\",\"release_ms_median\"}\n")
                .append("    jem3d:         {\"suite\",\"case\":\"seq\"|\"par2\",\"mesh\",\"tet_steps_per_s\",")
                .append("\"efficiency\",\"heap_bytes_per_tet\",\n")
                .append("                   \"runs\",\"tet_steps_per_s_worst\",\"steps\",\"subdomains\",")
                .append("\"other_cpu_cores_max\"} (case scaling)\n")
                .append("                   {\"suite\",\"case\":\"border\",\"impl\",\"faces\",\"ns_median\",")
                .append("\"ns_p99\",\"bytes\",\"samples\"}\n")
                .append("                   {\"suite\",\"case\":\"recovery\",\"mesh\",\"steps\",\"checkpoint_every\",")
                .append("\"runs\",\"loop_s_plain\",\"loop_s_checkpoints\",\n")
                .append("                   \"checkpoint_overhead\",\"checkpoint_ms\",\"checkpoint_overhead_model\",")
                .append("\"recovery_s\",")
                .append("\"recovery_s_worst\",\"extra_s\",\"extra_s_worst\",\"steps_redone\",")
                .append("\"other_cpu_cores_max\"}\n")
                .append(
                        "    mpi:           {\"suite\",\"case\":\"pingpong\"|\"sendrecv\"|\"pingpong-loaded\"|\"allreduce\"|")
                .append("\"bcast\"|\"first-message\",\"impl\",")
                .append("\"mode\",\"np\",[\"ppn\",][\"transport\",]\"bytes\",\"us\",\"p99_us\",\"MBps\"} (us: median;"
                        + " pingpong: half round trip; transport: shm or tcp between ranks' JVMs)\n")
                .append("                   (*-loaded: beside another JVM's two busy threads per core;"
                        + " first-message: a rank's first\n")
                .append("                   exchange with each other rank, mode jvm-first, against the same"
                        + " exchange later, jvm-later)\n")
                .append("    nozzle:        {\"suite\",\"case\":\"axi\",\"np\",\"mode\",\"cells\",\"iterations\",")
                .append("\"seconds\",\"cell_updates_per_s\"} (seconds: median of the runs)\n")
                .append(
                        "    monitor:       {\"suite\",\"case\":\"console-16\",\"jvms\",\"update_ms\",\"seconds\",\"browser\",")
                .append("\"console_cpu_percent\",\"console_cpu_percent_no_page\",\"launcher_cpu_percent\",")
                .append("\"browser_cpu_percent\",\"state_bytes\"} (percent of one core)\n")
                .append("  --quick      warmed harness without JMH, one JVM per case (30 s to 2 min a suite)\n")
                .append("  --case NAME  run only this case (repeatable)\n")
                .append("  --help       this text\n")
                .append("suites:\n");
        SUITES.forEach((name, factory) -> {
            final Suite suite = factory.get();
            b.append(String.format("  %-14s %s%n", name, suite.summary()))
                    .append(String.format("  %-14s cases: %s%n", "", String.join(", ", suite.cases())));
        });
        return b.toString();
    }
}
