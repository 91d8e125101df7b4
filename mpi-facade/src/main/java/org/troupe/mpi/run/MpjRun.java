package org.troupe.mpi.run;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import org.troupe.config.TroupeSettings;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.monitor.Monitor;
import org.troupe.monitor.MonitorSettings;

/** {@code bin/mpjrun}: runs an MPI program ({@code import mpi.*;}) as a job of N ranks. */
public final class MpjRun {
    static final String USAGE = """
        usage: mpjrun -np N [-dev threads|jvm|hybrid] [-descriptor FILE [-timeout S]] [-ppn K] [-cp CLASSPATH]
                      [-tag-output] [-hangreport S] [-monitor[=PORT]] MainClass [args...]
               mpjrun -np N [-dev threads|jvm|hybrid] [-descriptor FILE [-timeout S]] [-ppn K] [-tag-output]
                      [-hangreport S] [-monitor[=PORT]] -jar app.jar [args...]
          Runs the MPI program's main(String[]) in N ranks (an mpiJava / MPJ Express program: import mpi.*).
          -np N          number of ranks (default 1)
          -dev threads   the ranks are threads of one JVM, each with its own class loader, so the program's
                         statics are per rank (also: -dev multicore, as in MPJ Express). The default.
          -dev jvm       the ranks are JVMs of this host, linked by Troupe's transport (also: -dev niodev):
                         shared memory by default (troupe.core.transport=auto; TCP on loopback where it
                         cannot). They get mpjrun's JVM options (JAVA_OPTS: -Xmx..., -D...); rank 0 reads
                         mpjrun's standard input (with -descriptor, an empty one).
          -dev hybrid    several ranks per JVM (also: -dev hybdev, as in MPJ Express): JVMs of this host, or with
                         -descriptor the descriptor's, each running -ppn ranks as threads (each with its own class
                         loader, as -dev threads). Messages between ranks of one JVM go from thread to thread (one
                         copy), between JVMs through Troupe's transport.
          -ppn K         ranks per JVM with -dev hybrid or -descriptor (default: this host's cores with -dev hybrid,
                         1 with -descriptor alone). Ranks are placed in blocks: ranks 0..K-1 in the first JVM, K..2K-1
                         in the second, ...; when K does not divide N, the last JVM runs the N mod K left.
          -descriptor FILE  the ranks run in the JVMs the deployment descriptor FILE starts (local, SSH hosts,
                         PBS or Slurm jobs; bin/deploy FILE --check shows its plan), one rank per JVM in the
                         order they are described; it must bring N JVMs within the -timeout. The program's
                         class path goes to those JVMs too; set the descriptor's variables with
                         JAVA_OPTS=-Dname=value. With -ppn K, K ranks per JVM: it must bring ceil(N/K) JVMs.
          -timeout S     how long -descriptor waits for the JVMs, in seconds (default 120; a batch job may
                         wait in its queue longer)
          -cp CLASSPATH  where the program's classes are (also -classpath); default: the current directory
          -jar app.jar   the program's jar, whose manifest names the main class
          -tag-output    prefix every line of output with the rank that wrote it: [3] ...
          -hangreport S  when every rank still running has been blocked in MPI for S seconds (default 30; 0:
                         never), say on stderr what each waits in (call, peer, tag, count, communicator,
                         collective and its step) and, where it is certain, why none can go on: ranks waiting
                         for each other in a cycle, for a rank that has ended, or in different collectives. The
                         same at any time, for calls blocked a second or more: kill -USR1 <mpjrun's pid>
                         (pgrep -f MpjRun finds it).
          -monitor[=PORT]  serve a live web console of the job (its ranks and their state, the bytes sent between
                         them, their waits in MPI; the deployment with -descriptor) and its Prometheus metrics
                         (/metrics) on PORT (default: any free one), and print its URL (also --monitor). On
                         127.0.0.1 unless troupe.monitor.bindAddress says otherwise; every request needs its token.
          -h, --help     this text
          Exit status: 0 when every rank returned from main after MPI.Finalize; else, as mpirun's, the first
          failed rank's: Abort's error code, a System.exit's status, 1 for an exception (the others' MPI
          calls then fail, and ranks still running 5 s later are stopped), each cause said once on stderr;
          2 for a bad command line, a bad setting (JAVA_OPTS=-Dtroupe...), a main class not on the class path,
          or a descriptor that cannot be deployed or brings fewer JVMs than ranks. A rank's System.exit(n)
          ends that rank: with n = 0 after MPI.Finalize it has finished, else it failed (in -dev threads too,
          where it does not end the JVM).
        """;

    private MpjRun() {}

    /**
     * A hint for a descriptor not found: the one Troupe ships under that name, in its installation
     * ({@code troupe.home}, which bin/mpjrun sets), when a relative path was meant from there.
     */
    private static String shipped(final Path descriptor) {
        final String home = System.getProperty("troupe.home");
        if (home == null || descriptor.isAbsolute() || descriptor.getFileName() == null) {
            return "";
        }
        final Path there = Path.of(home, "descriptors").resolve(descriptor.getFileName());
        return Files.isRegularFile(there)
                ? " here; Troupe's own is " + there.toAbsolutePath().normalize()
                : "";
    }

    public static void main(final String[] args) throws Exception {
        // the console's HTTP server says its URL once (mpjrun prints it), not its start in INFO lines
        if (System.getProperty("org.slf4j.simpleLogger.log.org.eclipse.jetty") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.org.eclipse.jetty", "warn");
        }
        // A rank's classes are loaded apart, so the serializers of its objects are Kryo's reflective ones: that is
        // expected here, not worth a warning per class and rank.
        if (System.getProperty(QUIET_SERIALIZER_LOG) == null) {
            System.setProperty(QUIET_SERIALIZER_LOG, "error");
        }
        // A rank may pause a while (a long collection, a debugger) before the launcher and its peers take it for
        // lost: the launcher's runtime, the forked ranks' and the deployed JVMs' all get this.
        if (System.getProperty(JvmJob.PEER_TIMEOUT) == null && System.getenv("TROUPE_CORE_PEERTIMEOUTMILLIS") == null) {
            System.setProperty(JvmJob.PEER_TIMEOUT, String.valueOf(JvmJob.RANK_PEER_TIMEOUT_MILLIS));
        }
        // A deployment's start and end are not news to an MPI program's user, and mpjrun says itself what failed.
        if (System.getProperty(QUIET_DEPLOYMENT_LOG) == null) {
            System.setProperty(QUIET_DEPLOYMENT_LOG, "error");
        }
        System.exit(run(args, System.out, System.err));
    }

    /** What a JVM option given to mpjrun, as MPJ Express's mpjrun.sh takes them, starts with. */
    private static final Pattern JVM_OPTION =
            Pattern.compile("-(X|D|ea|da|esa|dsa|javaagent|agentlib|agentpath|verbose)");

    private static final String QUIET_DEPLOYMENT_LOG = "org.slf4j.simpleLogger.log.org.troupe.deploy";
    private static final String QUIET_SERIALIZER_LOG =
            "org.slf4j.simpleLogger.log.org.troupe.serialization.internal.GeneratedSerializerFactory";

    /** Runs the command line; returns the exit status. */
    static int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception {
        final Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("mpjrun: " + e.getMessage());
            err.println("mpjrun: see mpjrun -h");
            return 2;
        }
        if (o == null) {
            out.print(USAGE);
            return 0;
        }
        final String missing = o.missingMainClass();
        if (missing != null) {
            err.println("mpjrun: " + missing);
            return 2;
        }
        // kill -USR1 asks for it at any time from now on: its default would end mpjrun
        final HangReport hangs = new HangReport(o.np, o.hangReportSeconds, err);
        try (HangReport.OnDemand asked = HangReport.onSignal(hangs)) {
            return run(o, out, err, hangs);
        }
    }

    /** Runs the job {@code o} describes, with its console if asked for; what its ranks are blocked in goes to hangs. */
    private static int run(final Options o, final PrintStream out, final PrintStream err, final HangReport hangs)
            throws Exception {
        if (o.monitorPort() < 0) {
            return run(o, out, err, hangs, JobView.NONE);
        }
        final Monitor monitor;
        final MonitorSettings settings;
        try {
            settings = MonitorSettings.of(TroupeSettings.load(), o.monitorPort());
            monitor = Monitor.start(TroupeRuntime.get(), settings);
        } catch (IllegalArgumentException e) {
            err.println("mpjrun: " + e.getMessage());
            return 2;
        }
        monitor.title("mpjrun -np " + o.np() + " " + o.mainClass());
        err.println("mpjrun: console at " + monitor.url());
        try (monitor;
                JobView view = JobView.start(
                        TroupeRuntime.get(), monitor, o.np(), settings.update().toMillis())) {
            return run(o, out, err, hangs, view);
        }
    }

    private static int run(
            final Options o, final PrintStream out, final PrintStream err, final HangReport hangs, final JobView view)
            throws Exception {
        if (o.jvms()) {
            try {
                // from the settings, not the runtime: a deployment starts that with settings of its own
                final String unlinked = unlinkedRanks(CoreConfig.fromSettings().transport());
                if (unlinked != null) {
                    err.println("mpjrun: " + unlinked);
                    return 2;
                }
                return o.descriptor() != null
                        ? DescriptorJob.run(o, out, err, hangs, view)
                        : JvmJob.run(o, out, err, hangs, view);
            } catch (IllegalArgumentException e) { // settings the runtime refuses (JAVA_OPTS=-Dtroupe...)
                err.println("mpjrun: " + e.getMessage());
                return 2;
            } catch (TroupeException e) {
                if (!(e.getCause() instanceof IllegalArgumentException)) {
                    throw e;
                }
                err.println("mpjrun: " + e.getMessage()); // a setting the runtime refused as it started
                return 2;
            }
        }
        final PrintStream savedOut = System.out;
        final PrintStream savedErr = System.err;
        final RankOutput rankOut = RankOutput.over(out, o.tagOutput);
        final RankOutput rankErr = RankOutput.over(err, o.tagOutput);
        System.setOut(rankOut.printStream());
        System.setErr(rankErr.printStream());
        final ThreadsJob.Outcome outcome;
        try {
            outcome = ThreadsJob.run(
                    o.np,
                    mpiClasses(),
                    o.classPath,
                    o.mainClass,
                    o.programArgs,
                    ThreadsJob.ABORT_GRACE_NANOS,
                    hangs,
                    view.registry());
        } finally {
            System.out.flush();
            System.err.flush();
            rankOut.flushLeftovers();
            rankErr.flushLeftovers();
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        final JobReport report = new JobReport(o.np, err);
        outcome.ranks().stream()
                .filter(ThreadsJob.RankOutcome::failed)
                .sorted(Comparator.comparingLong(ThreadsJob.RankOutcome::failedAtNanos))
                .forEach(r -> {
                    if (!r.onlyLeftBehind()) {
                        report.failed(r.rank(), r.failure(), r.status());
                    }
                    if (r.leftBehind()) {
                        report.straggler(r.rank(), "left behind");
                    }
                });
        return report.finish(outcome.abortedBecause(), TimeUnit.NANOSECONDS.toSeconds(ThreadsJob.ABORT_GRACE_NANOS));
    }

    /**
     * Why ranks in JVMs of their own cannot be linked by the transport {@code transport} (troupe.core.transport), or
     * null if they can: {@code local} opens no socket, so the runtime would refuse with a stack trace at its start.
     */
    static String unlinkedRanks(final String transport) {
        return transport.equals("local")
                ? "troupe.core.transport=local links no JVMs, and these ranks run in JVMs of their own: set it to auto"
                        + " (the default), shm or tcp, or run the ranks as threads of one JVM (-dev threads)"
                : null;
    }

    /** Where the {@code mpi} classes are: this module's jar or classes directory. */
    static URL mpiClasses() {
        return MpjRun.class.getProtectionDomain().getCodeSource().getLocation();
    }

    /**
     * The parsed command line. {@code hybrid}: the JVMs run {@code ppn} ranks each as threads (-dev hybrid, or
     * -descriptor with -ppn); else {@code ppn} is 1.
     */
    record Options(
            int np,
            boolean jvms,
            boolean hybrid,
            int ppn,
            Path descriptor,
            long timeoutSeconds,
            int hangReportSeconds,
            boolean tagOutput,
            int monitorPort,
            List<URL> classPath,
            String mainClass,
            String[] programArgs) {
        /** Null for -h. */
        static Options parse(final String[] args) {
            int np = 1;
            boolean tag = false;
            boolean jvms = false;
            boolean hybrid = false;
            String ppnValue = null;
            String dev = null;
            Path descriptor = null;
            long timeout = 120;
            int hangReport = HangReport.DEFAULT_SECONDS;
            String cp = null;
            String jar = null;
            int i = 0;
            int monitor = -1;
            while (i < args.length && args[i].startsWith("-")) {
                final String a = args[i];
                if (a.matches("--?monitor(=.*)?")) {
                    try {
                        monitor = MonitorSettings.portOf(a.replaceFirst("^-?-monitor", "--monitor"));
                    } catch (IllegalArgumentException e) { // said as the user spelled it
                        throw new IllegalArgumentException(
                                e.getMessage().replace("--monitor", a.replaceFirst("=.*", "")), e);
                    }
                    if (i + 1 < args.length && args[i + 1].matches("[0-9]{1,5}") && !a.contains("=")) {
                        throw new IllegalArgumentException(a + " takes its port after '=': " + a + "=" + args[i + 1]);
                    }
                    i++;
                    continue;
                }
                switch (a) {
                    case "-h", "-help", "--help" -> {
                        return null;
                    }
                    case "-np" -> {
                        final String v = value(args, i++, a);
                        try {
                            np = Integer.parseInt(v);
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("-np takes a number of ranks, not '" + v + "'");
                        }
                        if (np < 1) {
                            throw new IllegalArgumentException("-np " + np + ": a job has at least one rank");
                        }
                    }
                    case "-dev" -> {
                        dev = value(args, i++, a);
                        switch (dev) {
                            case "threads", "multicore" -> jvms = false;
                            case "jvm", "niodev" -> jvms = true;
                            case "hybrid", "hybdev" -> {
                                jvms = true;
                                hybrid = true;
                            }
                            default ->
                                throw new IllegalArgumentException("-dev " + dev + " is not a device: threads"
                                        + " (or multicore) runs the ranks as threads of one JVM, jvm (or niodev) as JVMs of"
                                        + " this host, hybrid (or hybdev) as threads of several JVMs (-ppn per JVM)");
                        }
                    }
                    case "-ppn" -> ppnValue = value(args, i++, a);
                    case "-timeout" -> {
                        final String v = value(args, i++, a);
                        if (!v.matches("[0-9]{1,7}")) {
                            throw new IllegalArgumentException("-timeout takes a number of seconds, not '" + v + "'");
                        }
                        timeout = Long.parseLong(v);
                    }
                    case "-hangreport" -> {
                        final String v = value(args, i++, a);
                        if (!v.matches("[0-9]{1,6}")) {
                            throw new IllegalArgumentException(
                                    "-hangreport takes a number of seconds (0: never)," + " not '" + v + "'");
                        }
                        hangReport = Integer.parseInt(v);
                    }
                    case "-cp", "-classpath", "--class-path" -> cp = value(args, i++, a);
                    case "-jar" -> jar = value(args, i++, a);
                    case "-tag-output" -> tag = true;
                    case "-descriptor" -> {
                        descriptor = Path.of(value(args, i++, a));
                        if (!Files.isRegularFile(descriptor)) {
                            throw new IllegalArgumentException(
                                    "-descriptor " + descriptor + ": no such file" + shipped(descriptor));
                        }
                    }
                    case "-wdir" ->
                        throw new IllegalArgumentException("-wdir is not an option of mpjrun: the ranks start in"
                                + " mpjrun's working directory (on a descriptor's other hosts, in the home directory"
                                + " there: give the program absolute paths)");
                    case "-machinesfile", "-hostfile", "-machinefile" ->
                        throw new IllegalArgumentException(a
                                + " is not an option of mpjrun: the hosts, and how the ranks' JVMs start there, come from a"
                                + " deployment descriptor (-descriptor FILE; see descriptors/ssh.xml)");
                    case "-n", "--np", "-N" ->
                        throw new IllegalArgumentException("unknown option " + a + ": the number of ranks is -np N");
                    default -> {
                        if (JVM_OPTION.matcher(a).lookingAt()) {
                            throw new IllegalArgumentException(a + " is an option of the JVM, not of mpjrun: give"
                                    + " it in JAVA_OPTS (JAVA_OPTS=\"" + a + "\" bin/mpjrun ...), which every rank"
                                    + " gets (in -dev threads, the one JVM of the job)");
                        }
                        throw new IllegalArgumentException("unknown option " + a);
                    }
                }
                i++;
            }
            if (descriptor != null && dev != null && !jvms) {
                throw new IllegalArgumentException("-descriptor runs each rank in a JVM of the descriptor's nodes: it"
                        + " does not go with -dev " + dev);
            }
            final int ppn = ranksPerJvm(ppnValue, np, hybrid, descriptor != null, dev);
            hybrid |= ppnValue != null;
            final List<URL> classPath = new ArrayList<>();
            final String mainClass;
            if (jar != null) {
                if (cp != null) {
                    throw new IllegalArgumentException("give -jar or -cp, not both");
                }
                classPath.add(url(jar));
                mainClass = mainClassOf(jar);
            } else {
                if (i >= args.length) {
                    throw new IllegalArgumentException("no main class: name the program's class after the options");
                }
                mainClass = args[i++];
                classPath.addAll(classPath(cp == null ? "." : cp));
            }
            return new Options(
                    np,
                    jvms || descriptor != null,
                    hybrid,
                    ppn,
                    descriptor,
                    timeout,
                    hangReport,
                    tag,
                    monitor,
                    classPath,
                    mainClass,
                    Arrays.copyOfRange(args, i, args.length));
        }

        /**
         * The ranks per JVM: {@code -ppn}'s value, checked, else this host's cores (at most {@code np}) with -dev
         * hybrid, else 1.
         */
        private static int ranksPerJvm(
                final String value, final int np, final boolean hybrid, final boolean descriptor, final String dev) {
            if (value == null) {
                return hybrid ? Math.min(np, Runtime.getRuntime().availableProcessors()) : 1;
            }
            if (!hybrid && !descriptor) {
                throw new IllegalArgumentException("-ppn places several ranks in each JVM: give it with -dev hybrid"
                        + " (JVMs of this host) or -descriptor FILE (the descriptor's JVMs)"
                        + (dev == null ? "" : ", not -dev " + dev));
            }
            final int ppn;
            try {
                ppn = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-ppn takes a number of ranks per JVM, not '" + value + "'");
            }
            if (ppn < 1) {
                throw new IllegalArgumentException(
                        "-ppn " + ppn + ": a JVM runs at least one rank (-ppn 1 runs one rank per JVM)");
            }
            if (ppn > np) {
                throw new IllegalArgumentException("-ppn " + ppn + " is more ranks per JVM than the job has (-np " + np
                        + "): give -ppn " + np + " or less (-ppn " + np + " runs them all in one JVM)");
            }
            return ppn;
        }

        /** The number of JVMs the job runs in: one per {@link #ppn} ranks, the last holding what is left. */
        int jvmCount() {
            return (np + ppn - 1) / ppn;
        }

        /** Why the main class cannot be found on the class path, or null if it can. */
        String missingMainClass() {
            try (URLClassLoader finder = new URLClassLoader(classPath.toArray(new URL[0]), null)) {
                if (finder.findResource(mainClass.replace('.', '/') + ".class") != null) {
                    return null;
                }
            } catch (IOException e) {
                // as if not found
            }
            final List<String> absent = new ArrayList<>();
            for (final URL u : classPath) {
                if (!new File(u.getPath()).exists()) {
                    absent.add(u.getPath());
                }
            }
            return "main class " + mainClass + " is not on the class path "
                    + classPath.stream().map(URL::getPath).toList()
                    + (absent.isEmpty() ? "" : "; these entries do not exist: " + absent)
                    + " (name the class with its package, e.g. org.acme.Ring, and give -cp the directory or jar that holds"
                    + " it)";
        }

        /** The entries of a class path, as URLs; {@code dir/*} stands for the jars in dir, as for java. */
        static List<URL> classPath(final String cp) {
            final List<URL> urls = new ArrayList<>();
            for (final String entry : cp.split(File.pathSeparator)) {
                if (entry.endsWith("*") && (entry.length() == 1 || entry.endsWith(File.separator + "*"))) {
                    final File dir = new File(entry.length() == 1 ? "." : entry.substring(0, entry.length() - 2));
                    final File[] jars = dir.listFiles((d, n) -> n.endsWith(".jar") || n.endsWith(".JAR"));
                    if (jars != null) {
                        Arrays.sort(jars);
                        for (final File j : jars) {
                            urls.add(url(j.getPath()));
                        }
                    }
                } else if (!entry.isEmpty()) {
                    urls.add(url(entry));
                }
            }
            return urls;
        }

        private static String value(final String[] args, final int at, final String option) {
            if (at + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[at + 1];
        }

        private static URL url(final String entry) {
            try {
                return Path.of(entry).toAbsolutePath().toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("class path entry " + entry + " is not a path: " + e.getMessage());
            }
        }

        private static String mainClassOf(final String jar) {
            try (JarFile f = new JarFile(jar)) {
                final String main = f.getManifest() == null
                        ? null
                        : f.getManifest().getMainAttributes().getValue("Main-Class");
                if (main == null) {
                    throw new IllegalArgumentException(
                            jar + " names no Main-Class in its manifest: use -cp " + jar + " MainClass");
                }
                return main;
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "cannot read the jar " + jar + " (" + e.getClass().getSimpleName() + ")");
            }
        }
    }
}
