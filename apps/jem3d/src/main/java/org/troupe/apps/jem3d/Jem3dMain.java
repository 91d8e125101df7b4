package org.troupe.apps.jem3d;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.troupe.config.TroupeSettings;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.monitor.Monitor;
import org.troupe.monitor.MonitorSettings;
import org.troupe.monitor.Panel;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

/** {@code bin/jem3d}: one Jem3D run on a deployment, with a progress bar and a report. */
@Command(
        name = "jem3d",
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Solves Maxwell's equations in a perfectly conducting unit cube with the Jem3D finite-volume scheme on "
                    + "tetrahedra, its subdomains spread over the nodes of virtual node 'jem3d' of a deployment descriptor, "
                    + "and compares the result with an exact cavity mode.",
            "",
            "By default: mesh 41, one period of mode 111 (T = 2/sqrt(3)), CFL 0.5, 2 node JVMs on this host "
                    + "(descriptors/local.xml). Ctrl-C stops the run after the same step everywhere and reports; a second "
                    + "Ctrl-C aborts (the node JVMs are stopped all the same).",
            ""
        },
        footer = {
            "",
            "Exit status: 0 done, 1 the run failed (a subdomain failed, a loss it could not survive), 2 bad input or not "
                    + "enough nodes, 130 stopped by Ctrl-C (after its report, if it had started).",
            "Errors are L2 norms against the exact mode's cell averages, absolute. Subdomains need about 60 bytes of heap "
                    + "per tetrahedron, 160 with checkpoints; local.xml gives each node JVM the heap of its variable heap, 512m by default: JAVA_OPTS=-Dheap=2g "
                    + "bin/jem3d ... for more."
        })
public final class Jem3dMain implements Callable<Integer> {
    static final int EXIT_FAILED = 1;
    static final int EXIT_BAD_INPUT = 2;
    static final int EXIT_STOPPED = 130;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    boolean help;

    @Option(
            names = "--mesh",
            paramLabel = "M|M1xM2xM3",
            description = "Points per side (cells = points - 1); " + "default ${DEFAULT-VALUE}.",
            defaultValue = "41")
    String mesh;

    @Option(
            names = "--time",
            paramLabel = "T",
            description = "Simulated time, rounded up to whole steps; default one " + "period of mode 111, 2/sqrt(3).")
    Double time;

    @Option(names = "--steps", paramLabel = "N", description = "Number of steps, instead of --time.")
    Integer steps;

    @Option(
            names = "--cfl",
            paramLabel = "C",
            description = "CFL number in (0, 1]; default ${DEFAULT-VALUE}.",
            defaultValue = "0.5")
    double cfl;

    @Option(
            names = "--mode",
            paramLabel = "KKK[:Ax,Ay,Az]",
            description = "Cavity mode: three digits (111) or "
                    + "kx,ky,kz, and optionally a polarisation orthogonal to k; default ${DEFAULT-VALUE}.",
            defaultValue = "111")
    String mode;

    @Option(
            names = "--descriptor",
            paramLabel = "FILE",
            description = "Deployment descriptor with a virtual node "
                    + "'jem3d' (its variable vn is jem3d unless -Dvn is set: local.xml names its virtual node by it); default "
                    + "descriptors/local.xml of this installation.")
    Path descriptor;

    @Option(
            names = "--nodes",
            paramLabel = "N",
            description = "Nodes to ask for; the descriptor's variable jvms too "
                    + "(for local.xml, the JVMs it forks) unless -Djvms is set; 1 is the sequential run; default "
                    + "${DEFAULT-VALUE}.",
            defaultValue = "2")
    int nodes;

    @Option(
            names = "--adapt",
            paramLabel = "POLICY",
            description = "With fewer nodes than asked for: divide (the "
                    + "mesh among those obtained), wait (another --timeout for at least --min-nodes), shrink (a smaller mesh, "
                    + "the planned work per node), grow (divide, and take the nodes that come later, up to --nodes, at the next "
                    + "checkpoint); default ${DEFAULT-VALUE}.",
            defaultValue = "divide")
    String adapt;

    @Option(
            names = "--min-nodes",
            paramLabel = "K",
            description = "Fewest nodes to run on, whatever the policy; " + "default 1 (--nodes with --adapt wait).")
    Integer minNodes;

    @Option(
            names = "--timeout",
            paramLabel = "S",
            description =
                    "Seconds to wait for the nodes, and for a replacement after a loss; default " + "${DEFAULT-VALUE}.",
            defaultValue = "60")
    long timeoutSeconds;

    @Option(
            names = "--division",
            paramLabel = "AxBxC",
            description = "Divide into these subdomains instead of "
                    + "the best division for the nodes obtained; they are placed on the nodes in turn.")
    String division;

    @Option(
            names = "--checkpoint-every",
            paramLabel = "K",
            description = "Keep a checkpoint of every subdomain every K steps, in memory on its node and on a buddy "
                    + "node (0: none; a loss then restarts from the start); default ${DEFAULT-VALUE}.",
            defaultValue = "" + Jem3dOptions.DEFAULT_CHECKPOINT_EVERY)
    int checkpointEvery;

    @Option(
            names = "--on-loss",
            paramLabel = "POLICY",
            description = "When a node JVM is lost (dies, freezes past troupe.core.peerTimeoutMillis, is cut off): "
                    + "continue (take a replacement node within --timeout, else re-divide among the nodes left, and "
                    + "restart from the last checkpoint, with the same final fields) or fail; default "
                    + "${DEFAULT-VALUE}.",
            defaultValue = "continue")
    String onLoss;

    @Option(
            names = "--checkpoint",
            paramLabel = "DIR",
            description =
                    "Write each checkpoint to DIR too (made if missing, empty of checkpoints): a run whose "
                            + "launcher died goes on with --resume DIR, and one that lost a node with its buddy goes on from it.")
    Path checkpointDir;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description = "Go on with the run whose checkpoints are in DIR (its mesh, mode, CFL and steps), on the "
                    + "nodes the descriptor gives now, to the same final fields; its checkpoints go on into DIR.")
    Path resumeDir;

    @Spec
    CommandSpec spec;

    /** The checkpoint {@code --resume} goes on from. */
    private DiskCheckpoint resumed;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "Write the report as JSON (keys: mesh, tetrahedra, "
                    + "division, nodes, steps, dt, time, seconds, tet_steps_per_s, energy_rel_drift, error_E, error_H, "
                    + "heap_bytes_per_tet, checkpoint_overhead: the time loop's share spent taking checkpoints, events: "
                    + "losses, restarts, growth and a resume, each {event, step, text, steps_redone, seconds_lost}).")
    Path json;

    @Option(
            names = "--plot",
            paramLabel = "DIR",
            description = "Write PNG plots: energy and error over time, and "
                    + "|E| on the mid-plane with the subdomain borders. The error is then measured about 40 times during the "
                    + "run, a time the reported seconds leave out.")
    Path plot;

    @Option(
            names = "--monitor",
            arity = "0..1",
            fallbackValue = "",
            paramLabel = "PORT",
            description = "Serve a live web console of the run (the deployment, the subdomains' steps and waits, "
                    + "steps per second, energy drift, events) and its Prometheus metrics (/metrics) on PORT (default: "
                    + "any free one), and print its URL. Loopback only unless troupe.monitor.bindAddress says otherwise; "
                    + "every request needs the URL's token. troupe.monitor.control=true adds pause, resume and stop.")
    String monitorPort;

    private final PrintStream out;
    private final PrintStream err;
    /** Set when a Ctrl-C before the run has begun the JVM's exit. */
    private volatile boolean exiting;

    Jem3dMain(final PrintStream out, final PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(final String[] args) {
        // The run prints its own progress, decisions and the deployment's failures: Troupe's log says only
        // warnings, and the deployment's per-launch ones not twice. -D on the command line wins.
        defaultProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        defaultProperty("org.slf4j.simpleLogger.log.org.troupe.deploy.VirtualNode", "error");
        System.exit(run(args, System.out, System.err));
    }

    private static void defaultProperty(final String key, final String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** Runs the command line and returns its exit status. */
    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        CommandLine cli = new CommandLine(new Jem3dMain(out, err));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setParameterExceptionHandler((e, a) -> {
            err.println("jem3d: " + e.getMessage() + " (bin/jem3d --help lists the options)");
            return EXIT_BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((e, c, p) -> {
            err.println("jem3d: " + e);
            return EXIT_FAILED;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() {
        Jem3dOptions options;
        try {
            options = options();
        } catch (IllegalArgumentException e) {
            err.println("jem3d: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        Deployment deployment;
        try {
            deployment = Deployment.load(options.descriptor(), variables());
            deployment.virtualNode(Jem3dRun.VIRTUAL_NODE);
        } catch (RuntimeException e) {
            err.println("jem3d: " + oneLine(e.getMessage()));
            return EXIT_BAD_INPUT;
        }
        TroupeRuntime runtime;
        try {
            runtime = TroupeRuntime.start(CoreConfig.fromSettings());
        } catch (RuntimeException e) { // a setting the runtime refuses (JAVA_OPTS=-Dtroupe...)
            deployment.close();
            err.println("jem3d: " + oneLine(e.getMessage()));
            return EXIT_BAD_INPUT;
        }
        Progress progress = new Progress();
        Monitor monitor;
        try {
            monitor = monitorPort == null
                    ? null
                    : Monitor.start(
                            runtime,
                            MonitorSettings.of(
                                    TroupeSettings.load(),
                                    MonitorSettings.portOf(
                                            monitorPort.isEmpty() ? "--monitor" : "--monitor=" + monitorPort)));
        } catch (IllegalArgumentException e) {
            deployment.close();
            runtime.shutdown();
            err.println("jem3d: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        Jem3dRun run = new Jem3dRun(options, monitor == null ? progress : new Watched(progress, monitor));
        if (monitor != null) {
            deployment.showIn(monitor);
            monitor.title("Jem3D, mesh " + options.mesh() + ", deployment " + deployment.id());
            final Panel panel = monitor.panel("Jem3D");
            monitor.control("pause", () -> {
                run.pause();
                panel.event("paused from the console");
                out.println("paused from the console");
            });
            monitor.control("resume", () -> {
                run.resume();
                panel.event("resumed from the console");
                out.println("resumed from the console");
            });
            monitor.control("stop", () -> {
                panel.event("stop asked from the console");
                err.println("jem3d: stop asked from the console; stopping after the current step");
                run.stop();
            });
            err.println("jem3d: console at " + monitor.url());
        }
        if (resumed != null) {
            try {
                run.resumeFrom(resumed);
            } catch (IllegalArgumentException e) {
                deployment.close();
                runtime.shutdown();
                err.println("jem3d: " + e.getMessage());
                return EXIT_BAD_INPUT;
            }
            out.println("resuming from " + resumeDir + ": " + resumed);
        }
        if (plot != null) {
            run.keepSlice();
        }
        stopOnInterrupt(run);
        try {
            out.printf(
                    Locale.ROOT,
                    "Jem3D: mode %s, mesh %s, CFL %s, %s; deployment %s of %s (%d %s asked for, " + "adapt %s)%n",
                    options.mode(),
                    options.mesh(),
                    cfl,
                    steps != null ? steps + " steps" : String.format(Locale.ROOT, "t = %.6g", options.time()),
                    deployment.id(),
                    options.descriptor(),
                    options.nodes(),
                    options.nodes() == 1 ? "node" : "nodes",
                    options.adapt());
            warnIfUnderResolved(options);
            try {
                deployment.start();
            } catch (RuntimeException e) { // nothing started: a descriptor its hosts cannot use, an address
                err.println("jem3d: cannot deploy: " + oneLine(e.getMessage()));
                return EXIT_BAD_INPUT;
            }
            if (deployment.addressNote() != null) {
                out.println(deployment.addressNote());
            }
            Jem3dReport report = run.run(deployment);
            out.println("Report:");
            out.print(report.toText());
            if (json != null) {
                try {
                    Files.writeString(json, report.toJson() + System.lineSeparator());
                } catch (IOException e) {
                    throw new IOException(json + ": " + e.getMessage(), e);
                }
                out.println("  json          " + json);
            }
            if (plot != null) {
                try {
                    for (Path p : Plots.write(report, plot)) {
                        out.println("  plot          " + p);
                    }
                } catch (IOException e) {
                    throw new IOException(plot + ": " + e.getMessage(), e);
                }
            }
            return report.stoppedEarly() ? EXIT_STOPPED : 0;
        } catch (Jem3dException e) {
            progress.end();
            if (exiting) {
                return EXIT_STOPPED; // Ctrl-C before the run: the JVM is exiting, which is what failed here
            }
            err.println("jem3d: " + oneLine(e.getMessage()));
            if (!run.stopRequested()) {
                deployment.keepLogs(); // the node JVMs' side of the failure
            }
            return run.stopRequested()
                    ? EXIT_STOPPED
                    : e instanceof NotEnoughNodesException ? EXIT_BAD_INPUT : EXIT_FAILED;
        } catch (IOException e) {
            err.println("jem3d: could not write " + e.getMessage());
            return EXIT_FAILED;
        } finally {
            if (monitor != null) {
                monitor.close();
            }
            // after the error is out: stopping the JVMs may take a while
            deployment.close();
            runtime.shutdown();
        }
    }

    /** A mode the mesh cannot resolve runs, but the user should know its error will be large. */
    private void warnIfUnderResolved(final Jem3dOptions options) {
        int[] k = {options.mode().kx(), options.mode().ky(), options.mode().kz()};
        for (int d = 0; d < 3; d++) {
            double cells = (double) options.mesh().cells(d) / Math.max(1, k[d]);
            if (k[d] > 0 && cells < 4) {
                out.printf(
                        Locale.ROOT,
                        "warning: mode %s has %.1f cells per half wave along %s; expect a large "
                                + "error, or use a finer mesh%n",
                        options.mode().label(),
                        cells,
                        "xyz".charAt(d));
            }
        }
    }

    private Jem3dOptions options() {
        if (resumeDir != null) {
            for (String given : List.of("--mesh", "--time", "--steps", "--cfl", "--mode")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(given)) {
                    throw new IllegalArgumentException(
                            given + " comes from the checkpoint with --resume: leave it out");
                }
            }
            if (!Files.isDirectory(resumeDir)) {
                throw new IllegalArgumentException("cannot resume from " + resumeDir + ": it is not a directory");
            }
            resumed = DiskCheckpoint.latest(resumeDir);
            if (resumed == null) {
                throw new IllegalArgumentException(resumeDir + " holds no checkpoint (checkpoint-NNNNNNNN.jem3d) to "
                        + "resume from: a run writes them with --checkpoint DIR");
            }
            mesh = resumed.mesh().toString();
            steps = resumed.steps();
            cfl = resumed.cfl();
        }
        Mesh m = Mesh.parse(mesh);
        Path file = descriptor != null
                ? descriptor
                : Path.of(System.getProperty("troupe.home", "."), "descriptors", "local.xml");
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(
                    "cannot read the descriptor " + file + ": give a readable file with " + "--descriptor");
        }
        if (time != null && steps != null) {
            throw new IllegalArgumentException("give --time or --steps, not both");
        }
        if (minNodes != null && minNodes < 1) {
            throw new IllegalArgumentException("--min-nodes must be 1 or more, got " + minNodes);
        }
        if (steps != null && steps < 1) {
            throw new IllegalArgumentException("--steps must be 1 or more, got " + steps);
        }
        int[] d = division == null ? null : Division.parse(division);
        if (d != null) {
            Block.divide(m, d);
        }
        checkOutputs();
        Path checkpoints = checkpointDir != null ? checkpointDir : resumeDir;
        if (checkpoints != null) {
            if (checkpointEvery == 0) {
                throw new IllegalArgumentException((checkpointDir != null ? "--checkpoint" : "--resume")
                        + " writes checkpoints into " + checkpoints + ", and --checkpoint-every 0 takes none: give "
                        + "it a number of steps, or leave it out (" + Jem3dOptions.DEFAULT_CHECKPOINT_EVERY + ")");
            }
            checkCheckpointDirectory(checkpoints);
        }
        Jem3dOptions o = new Jem3dOptions(
                m,
                time != null ? time : Jem3dOptions.DEFAULT_TIME,
                steps != null ? steps : 0,
                cfl,
                resumed != null ? resumed.mode() : CavityMode.parse(mode),
                file,
                nodes,
                Adapt.parse(adapt),
                minNodes != null ? minNodes : 0,
                Duration.ofSeconds(timeoutSeconds),
                d,
                0,
                checkpointEvery,
                OnLoss.parse(onLoss),
                checkpoints);
        if (resumed != null) {
            return o.withErrorEvery(resumed.errorEvery()); // the run's own sampling, which its errors so far follow
        }
        // the error plot: about 40 samples over the run
        return plot == null ? o : o.withErrorEvery(Math.max(1, o.stepsFor(m) / 40));
    }

    /**
     * Makes the checkpoint directory if it is missing, and refuses one that cannot take checkpoints, or that holds
     * another run's: a fresh run's first checkpoint would replace it, and --resume then go on with the wrong run.
     */
    private void checkCheckpointDirectory(final Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalArgumentException("cannot make the checkpoint directory " + dir
                    + (Files.exists(dir) ? ", a file of that name is there" : "") + ": --checkpoint needs a directory");
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException("cannot write checkpoints into " + dir + ": it is not writable");
        }
        boolean same = resumeDir != null
                && dir.toAbsolutePath()
                        .normalize()
                        .equals(resumeDir.toAbsolutePath().normalize());
        if (!same) {
            DiskCheckpoint other = DiskCheckpoint.latest(dir);
            if (other != null) {
                throw new IllegalArgumentException(dir + " holds the " + other + " already: go on with that run with "
                        + "--resume " + dir + ", or give --checkpoint an empty directory");
            }
        }
    }

    /** Refuses, before anything runs, outputs that could not be written at the end. */
    private void checkOutputs() {
        if (json != null) {
            Path parent = json.toAbsolutePath().getParent();
            if (Files.isDirectory(json) || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
                throw new IllegalArgumentException("cannot write the report to " + json + ": --json needs a file in "
                        + "an existing directory you can write to");
            }
        }
        if (json != null
                && plot != null
                && json.toAbsolutePath()
                        .normalize()
                        .equals(plot.toAbsolutePath().normalize())) {
            throw new IllegalArgumentException("--json and --plot name the same path, " + json);
        }
        if (plot != null) {
            try {
                Files.createDirectories(plot);
            } catch (IOException | UnsupportedOperationException e) {
                throw new IllegalArgumentException("cannot make the plot directory " + plot
                        + (Files.exists(plot) ? ", a file of that name is there" : "")
                        + ": --plot needs a directory, existing or to be made");
            }
            if (!Files.isWritable(plot)) {
                throw new IllegalArgumentException("cannot write plots into " + plot + ": it is not writable");
            }
        }
    }

    /**
     * The descriptor's {@code jvms} is the number of nodes, and its {@code vn} (the name descriptors/local.xml gives
     * its virtual node) is jem3d, unless the user set them.
     */
    private Map<String, String> variables() {
        Map<String, String> vars = new HashMap<>();
        if (System.getProperty("jvms") == null && System.getenv("jvms") == null) {
            vars.put("jvms", String.valueOf(nodes));
        }
        if (System.getProperty("vn") == null && System.getenv("vn") == null) {
            vars.put("vn", Jem3dRun.VIRTUAL_NODE);
        }
        return vars;
    }

    /**
     * The first Ctrl-C stops the run cleanly (or ends at once if it has not started); the second exits, the
     * deployment's shutdown hook stopping its JVMs; a third halts.
     */
    private void stopOnInterrupt(final Jem3dRun run) {
        AtomicInteger count = new AtomicInteger();
        try {
            Signal.handle(new Signal("INT"), s -> {
                if (count.incrementAndGet() == 1) {
                    switch (run.stop()) {
                        case RUNNING ->
                            err.println(System.lineSeparator()
                                    + "jem3d: stopping after the current step (Ctrl-C again to abort)");
                        case PREPARING -> {
                            // nothing to report yet: end now; the deployment's shutdown hook stops its JVMs
                            err.println(System.lineSeparator() + "jem3d: stopped before the run started");
                            exiting = true;
                            System.exit(EXIT_STOPPED);
                        }
                        case OVER -> {} // only the clean-up is left: let it finish (a second Ctrl-C exits)
                    }
                } else if (count.get() == 2) {
                    System.exit(EXIT_STOPPED); // the deployment's shutdown hook stops its JVMs
                } else {
                    Runtime.getRuntime().halt(EXIT_STOPPED); // even that hangs: out now
                }
            });
        } catch (IllegalArgumentException e) {
            // no INT signal here (the JVM was started with -Xrs): Ctrl-C then ends the JVM as usual
        }
    }

    private static String oneLine(final String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ");
    }

    /** The run as the console's Jem3D panel shows it: steps per second and drift as charts, decisions as events. */
    private static final class Watched implements Jem3dRun.Listener {
        private final Jem3dRun.Listener next;
        private final Panel panel;
        private long lastNanos;
        private int lastSteps = -1;

        Watched(final Jem3dRun.Listener next, final Monitor monitor) {
            this.next = next;
            this.panel = monitor.panel("Jem3D");
        }

        @Override
        public void info(final String line) {
            panel.event(line);
            next.info(line);
        }

        @Override
        public void progress(final RunStatus status) {
            final long now = System.nanoTime();
            // a point per half second at most: the charts keep their last 600
            if (lastSteps < 0 || (now - lastNanos > 500_000_000L && status.stepsDone() > lastSteps)) {
                if (lastSteps >= 0) {
                    panel.point(
                            "steps per second",
                            "step",
                            "steps/s",
                            status.stepsDone(),
                            (status.stepsDone() - lastSteps) / ((now - lastNanos) / 1e9));
                }
                panel.point("energy drift", "step", "relative drift", status.stepsDone(), status.energyDrift());
                lastNanos = now;
                lastSteps = status.stepsDone();
            }
            next.progress(status);
        }
    }

    /** Decisions as lines on standard output, progress as a bar on the terminal (lines every 10% otherwise). */
    private final class Progress implements Jem3dRun.Listener {
        private final boolean terminal;
        private ProgressBar bar;
        private int lastTenth = -1;
        private long begin;
        /** The steps done when the first progress came: a resumed run starts after some. */
        private int firstSteps;

        Progress() {
            var console = System.console();
            terminal = console != null && console.isTerminal();
        }

        @Override
        public void info(final String line) {
            out.println(line);
        }

        /** Closes the bar, so that what follows starts on a line of its own. */
        void end() {
            if (bar != null) {
                bar.close();
                bar = null;
            }
        }

        @Override
        public void progress(final RunStatus status) {
            if (begin == 0) {
                begin = System.nanoTime();
                firstSteps = status.stepsDone();
            }
            String extra = String.format(
                    Locale.ROOT, " drift %.1e%s", status.energyDrift(), status.paused() ? ", paused" : "");
            if (terminal) {
                if (bar == null) {
                    bar = new ProgressBarBuilder()
                            .setTaskName("steps")
                            .setInitialMax(status.stepsPlanned())
                            .startsFrom(status.stepsDone(), Duration.ZERO) // a resumed run: its speed from here
                            .setStyle(ProgressBarStyle.COLORFUL_UNICODE_BLOCK)
                            .showSpeed()
                            .setUpdateIntervalMillis(100)
                            .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(err))
                            .build();
                }
                bar.maxHint(status.stepsPlanned());
                bar.stepTo(status.stepsDone());
                bar.setExtraMessage(extra);
                if (status.isOver()) {
                    end();
                }
                return;
            }
            int tenth = status.stepsPlanned() == 0 ? 10 : 10 * status.stepsDone() / status.stepsPlanned();
            if (tenth != lastTenth) {
                lastTenth = tenth;
                double seconds = (System.nanoTime() - begin) / 1e9;
                err.printf(
                        Locale.ROOT,
                        "  %3d%%  step %d of %d, %.1f steps/s, %s%n",
                        10 * tenth,
                        status.stepsDone(),
                        status.stepsPlanned(),
                        seconds > 0 ? (status.stepsDone() - firstSteps) / seconds : 0.0,
                        extra);
            }
        }
    }
}
