package org.troupe.mpi.run;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.troupe.config.TroupeSettings;
import org.troupe.core.CoreConfig;

/**
 * The rank JVMs of a job run on this host ({@code bin/mpjrun -dev jvm}): each is forked with mpjrun's own JVM
 * options, its runtime's secret in the environment, and a thread per output stream copying it to mpjrun's
 * ({@link ForwardedOutput#pump}). {@link #start} is called by the job's thread, one rank after the other.
 */
final class ForkedRanks implements JvmJob.RankJvms {
    private final MpjRun.Options options;
    private final PrintStream out;
    private final PrintStream err;
    private final String secret;
    private final List<Thread> pumps = new ArrayList<>();

    /** The ranks of {@code options}' job, their output to {@code out} and {@code err}, with {@code secret}. */
    ForkedRanks(final MpjRun.Options options, final PrintStream out, final PrintStream err, final String secret) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.secret = secret;
    }

    @Override
    public JvmJob.RankJvm start(final int first, final int count, final String launcher) throws IOException {
        final Process p = fork(first, count, launcher);
        // A JVM of several ranks tags their lines itself (HybridRanks); one of a single rank, here.
        final String prefix = options.tagOutput() && !options.hybrid() ? "[" + first + "] " : "";
        pumps.add(ForwardedOutput.pump(p.getInputStream(), out, prefix, options.hybrid()));
        pumps.add(ForwardedOutput.pump(p.getErrorStream(), err, prefix, options.hybrid()));
        return new ForkedRank(
                p, options.hybrid() ? "its JVM (of ranks " + first + " to " + (first + count - 1) + ")" : "its JVM");
    }

    /** Waits, a bounded time, for the output the ranks' JVMs wrote before they ended to be copied. */
    void awaitOutput() throws InterruptedException {
        for (final Thread t : pumps) {
            t.join(2_000);
        }
    }

    private Process fork(final int rank, final int count, final String launcher) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(CoreConfig.JVM_FLAGS);
        command.add("-Xss4m");
        // A rank may pause a while (a long collection, a debugger) before its peers take it for lost.
        if (System.getProperty(JvmJob.PEER_TIMEOUT) != null) { // mpjrun's own (see MpjRun.main)
            command.add("-D" + JvmJob.PEER_TIMEOUT + "=" + System.getProperty(JvmJob.PEER_TIMEOUT));
        }
        // What mpjrun's JVM was given (JAVA_OPTS: -Xmx, -D, ...) holds for the ranks' JVMs too, but the secret,
        // which they get from the environment.
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-Dtroupe.core.secret=")) {
                command.add(arg);
            }
        }
        command.add("-D" + TroupeSettings.CHECKED_PROP_NAME + "=true"); // mpjrun warned of unknown settings
        final String appClassPath = String.join(
                File.pathSeparator,
                options.classPath().stream()
                        .map(u -> {
                            try {
                                return Path.of(u.toURI()).toString();
                            } catch (URISyntaxException ex) {
                                throw new IllegalArgumentException(ex);
                            }
                        })
                        .toList());
        command.addAll(List.of("-cp", System.getProperty("java.class.path") + File.pathSeparator + appClassPath));
        if (options.hybrid()) {
            command.addAll(List.of(
                    HybridRanks.class.getName(),
                    launcher,
                    String.valueOf(rank),
                    String.valueOf(count),
                    String.valueOf(options.np()),
                    appClassPath,
                    String.valueOf(options.tagOutput()),
                    options.mainClass()));
        } else {
            command.addAll(List.of(
                    JvmRank.class.getName(),
                    launcher,
                    String.valueOf(rank),
                    String.valueOf(options.np()),
                    appClassPath,
                    options.mainClass()));
        }
        command.addAll(List.of(options.programArgs()));
        final ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("TROUPE_CORE_SECRET", secret);
        // Standard input goes to rank 0, as mpirun gives it; the others read an empty one.
        pb.redirectInput(
                rank == 0 ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.from(new File("/dev/null")));
        return pb.start();
    }

    /** A rank JVM this launcher forked; {@code name} says it in a rank's failure ("its JVM (of ranks 2 to 3)"). */
    private record ForkedRank(Process process, String name) implements JvmJob.RankJvm {
        @Override
        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public String endedBecause(final boolean finalized) {
            if (process.exitValue() != 0) {
                return name + " ended with status " + process.exitValue() + " before the rank finished";
            }
            return finalized
                    ? null
                    : name + " ended with status 0 before the rank called MPI.Finalize (a System.exit" + "(0)?)";
        }

        @Override
        public int exitStatus() {
            return JobReport.exitStatus(process.exitValue());
        }

        @Override
        public boolean awaitEnd(final long seconds) throws InterruptedException {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        }

        @Override
        public void stop() {
            process.destroyForcibly();
        }
    }
}
