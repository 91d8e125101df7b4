package org.troupe.deploy;

import java.io.Console;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.troupe.config.TroupeSettings;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.deploy.descriptor.Descriptor;
import org.troupe.deploy.descriptor.DescriptorLoader;
import org.troupe.monitor.Monitor;
import org.troupe.monitor.MonitorSettings;
import org.troupe.serialization.SerializationConfig;

/**
 * {@code bin/deploy}: checks a descriptor and prints its plan, or deploys it and runs an application main that uses
 * its virtual nodes ({@link Deployment#current()}), then stops everything. Its whole command line is read here
 * (the script passes it on as it is); {@code deploy-usage.txt} beside this class is its help, which the script
 * prints by itself, so that asking for it never waits for a build.
 */
public final class DeployMain {
    static final String USAGE = usage();
    /** The level of the console's HTTP server's log lines (slf4j-simple). */
    static final String JETTY_LOG_LEVEL_PROP_NAME = "org.slf4j.simpleLogger.log.org.eclipse.jetty";

    /** The command line, read. */
    /** @param monitorPort the console's port ({@code --monitor[=PORT]}), or -1 for no console */
    record Options(
            Path descriptor,
            List<Path> classPath,
            Duration timeout,
            int monitorPort,
            String mainClass,
            List<String> args) {
        boolean check() {
            return mainClass == null;
        }
    }

    /** A command line that cannot be run: the message says what is wrong. */
    static final class UsageException extends Exception {
        UsageException(final String message) {
            super(message);
        }
    }

    private DeployMain() {}

    public static void main(final String[] args) {
        // The progress lines say what Troupe's INFO lines would; its warnings stay. -D on the command line wins.
        if (System.getProperty(Deployment.TROUPE_LOG_LEVEL_PROP_NAME) == null) {
            System.setProperty(Deployment.TROUPE_LOG_LEVEL_PROP_NAME, "warn");
        }
        if (System.getProperty(JETTY_LOG_LEVEL_PROP_NAME) == null) { // the console's server says its URL once
            System.setProperty(JETTY_LOG_LEVEL_PROP_NAME, "warn");
        }
        System.exit(run(args, System.out, System.err));
    }

    /** Null for a request for help. */
    static Options parse(final String[] args) throws UsageException {
        Path descriptor = null;
        final List<Path> classPath = new ArrayList<>();
        Duration timeout = Duration.ofSeconds(120);
        int monitor = -1;
        boolean check = false;
        for (int i = 0; i < args.length; i++) {
            final String a = args[i];
            if (a.startsWith("--cp=") || a.startsWith("--timeout=")) { // the GNU form: --cp=PATH
                final String[] split = new String[args.length + 1];
                System.arraycopy(args, 0, split, 0, i);
                split[i] = a.substring(0, a.indexOf('='));
                split[i + 1] = a.substring(a.indexOf('=') + 1);
                System.arraycopy(args, i + 1, split, i + 2, args.length - i - 1);
                return parse(split);
            }
            if (a.equals("--monitor") || a.startsWith("--monitor=")) {
                try {
                    monitor = MonitorSettings.portOf(a);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
                continue;
            }
            switch (a) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--check" -> check = true;
                case "-cp", "-classpath", "--class-path" ->
                    throw new UsageException("unknown option " + a + ": the application's class path is --cp PATH");
                case "--cp" -> {
                    for (final String entry : value(args, i++).split(File.pathSeparator)) {
                        if (!entry.isEmpty()) {
                            classPath.add(Path.of(entry));
                        }
                    }
                }
                case "--timeout" -> {
                    final String v = value(args, i++);
                    if (!v.matches("[0-9]{1,6}")) {
                        throw new UsageException("--timeout takes a number of seconds, not '" + v + "'");
                    }
                    timeout = Duration.ofSeconds(Long.parseLong(v));
                }
                case "--run" -> {
                    if (check) {
                        throw new UsageException("say --check or --run, not both");
                    }
                    final String main = value(args, i);
                    final List<String> appArgs = List.of(Arrays.copyOfRange(args, i + 2, args.length));
                    if (descriptor == null && appArgs.stream().anyMatch(x -> x.endsWith(".xml"))) {
                        throw new UsageException("name the descriptor before --run: what follows --run " + main
                                + " is the application's arguments");
                    }
                    return new Options(checkDescriptor(descriptor), classPath, timeout, monitor, main, appArgs);
                }
                default -> {
                    if (a.startsWith("-D")) {
                        throw new UsageException("unknown option " + a + ": settings and the descriptor's ${variables}"
                                + " go in JAVA_OPTS (JAVA_OPTS=\"" + a + "\" bin/deploy ...)");
                    }
                    if (a.startsWith("-")) {
                        throw new UsageException("unknown option " + a);
                    }
                    if (a.matches("[0-9]{1,5}") && i > 0 && args[i - 1].equals("--monitor")) {
                        throw new UsageException("--monitor takes its port after '=': --monitor=" + a);
                    }
                    if (descriptor != null) {
                        throw new UsageException("one descriptor at a time: " + descriptor + " or " + a + "?"
                                + (a.endsWith(".xml") ? "" : " (to run " + a + ", say --run " + a + ")"));
                    }
                    descriptor = Path.of(a);
                }
            }
        }
        if (!check) {
            throw new UsageException(
                    descriptor == null && args.length == 0
                            ? "name a descriptor, and say --check or" + " --run MAIN_CLASS"
                            : "say --check, or --run MAIN_CLASS [ARGS...]");
        }
        return new Options(checkDescriptor(descriptor), classPath, timeout, monitor, null, List.of());
    }

    private static String value(final String[] args, final int i) throws UsageException {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
            throw new UsageException(args[i] + " needs "
                    + switch (args[i]) {
                        case "--cp" -> "a class path";
                        case "--timeout" -> "a number of seconds";
                        default -> "the application's main class";
                    });
        }
        return args[i + 1];
    }

    private static Path checkDescriptor(final Path descriptor) throws UsageException {
        if (descriptor == null) {
            throw new UsageException("name the descriptor to deploy, e.g. descriptors/local.xml");
        }
        return descriptor;
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final Options o;
        try {
            o = parse(args);
        } catch (UsageException e) {
            err.println("bin/deploy: " + e.getMessage());
            err.print(USAGE);
            return 64;
        }
        if (o == null) {
            out.print(USAGE);
            return 0;
        }
        if (!Files.isRegularFile(o.descriptor())) { // a bad descriptor, not a bad command line: no usage
            err.println("bin/deploy: descriptor " + o.descriptor() + " does not exist");
            return 2;
        }
        for (final Path entry : o.classPath()) {
            if (!Files.exists(entry)) {
                err.println("bin/deploy: --cp names " + entry + ", which does not exist");
                return 64;
            }
        }
        if (!o.classPath().isEmpty() && !ApplicationLoader.loadedThis()) {
            return ApplicationLoader.runWith(o.classPath(), args, out, err);
        }
        final Descriptor descriptor;
        try {
            descriptor = DescriptorLoader.load(o.descriptor());
        } catch (TroupeException e) {
            err.println("bin/deploy: " + e.getMessage());
            return 2;
        }
        if (o.check()) {
            try {
                out.print(new Deployment(descriptor).plan());
            } catch (TroupeException e) {
                err.println("bin/deploy: cannot deploy: " + e.getMessage());
                return 2;
            }
            return 0;
        }
        final Method main;
        try {
            main = Class.forName(o.mainClass(), false, DeployMain.class.getClassLoader())
                    .getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) {
                err.println("bin/deploy: " + o.mainClass() + ".main(String[]) is not static");
                return 64;
            }
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            err.println("bin/deploy: no class " + o.mainClass() + " with a main(String[]) on the class path (add the"
                    + " application's classes with --cp PATH"
                    + (o.args().contains("--cp")
                            ? ", before --run: what" + " follows --run " + o.mainClass()
                                    + " is the application's arguments"
                            : "")
                    + ")");
            return 64;
        }
        final ImmutableConfiguration settings = TroupeSettings.load();
        final String allowed = allowMainPackage(o.mainClass(), settings);
        if (allowed != null) {
            err.println("bin/deploy: " + allowed);
        }
        if (!settings.containsKey(Deployment.RELAY_OUTPUT_PROP_NAME)) {
            System.setProperty(Deployment.RELAY_OUTPUT_PROP_NAME, "true");
        }
        final MonitorSettings monitorSettings;
        try {
            monitorSettings = o.monitorPort() < 0 ? null : MonitorSettings.of(settings, o.monitorPort());
        } catch (IllegalArgumentException e) {
            err.println("bin/deploy: " + e.getMessage());
            return 2;
        }
        try (Deployment d = new Deployment(descriptor);
                Monitor monitor = monitorSettings == null ? null : startMonitor(monitorSettings, err)) {
            if (monitorSettings != null && monitor == null) {
                return 2;
            }
            try {
                d.start();
            } catch (RuntimeException e) { // a TroupeException, or a bind address this host does not have
                err.println("bin/deploy: cannot deploy: " + e.getMessage());
                return 2;
            }
            if (monitor != null) {
                d.showIn(monitor);
            }
            // its id is in the names of its nodes, its JVMs' command lines and its logs' directory
            err.println("bin/deploy: deployment " + d.id() + " of " + o.descriptor());
            if (d.addressNote() != null) {
                err.println("bin/deploy: " + d.addressNote());
            }
            acquire(d, o.timeout(), err);
            final List<String> empty = d.virtualNodes().stream()
                    .filter(vn -> vn.size() == 0)
                    .map(VirtualNode::name)
                    .toList();
            if (!empty.isEmpty()) {
                err.println("bin/deploy: no node arrived for " + String.join(", ", empty) + "; " + o.mainClass()
                        + " is not run");
                return 2;
            }
            d.makeCurrent();
            // Ctrl-C or a kill: the deployment's own hook stops the node JVMs under the running application, whose
            // calls then fail; that is the interruption's doing, not the application's failure.
            final AtomicBoolean interrupted = new AtomicBoolean();
            final Thread hook = new Thread(
                    () -> {
                        interrupted.set(true);
                        err.println("bin/deploy: interrupted: stopping deployment " + d.id());
                    },
                    "bin-deploy-interrupted");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                main.invoke(null, (Object) o.args().toArray(new String[0]));
                return 0;
            } catch (InvocationTargetException e) {
                if (interrupted.get()) {
                    err.println("bin/deploy: " + o.mainClass() + " stopped with its deployment (" + e.getCause() + ")");
                    return 130;
                }
                d.keepLogs();
                err.println("bin/deploy: " + o.mainClass() + " failed: " + e.getCause());
                e.getCause().printStackTrace(err);
                return 1;
            } catch (IllegalAccessException e) {
                err.println("bin/deploy: cannot call " + o.mainClass() + ".main: " + e.getMessage());
                return 1;
            } finally {
                removeHook(hook);
            }
        }
    }

    /** The console, its URL said once; null, said why, if it cannot listen. */
    private static Monitor startMonitor(final MonitorSettings settings, final PrintStream err) {
        try {
            final Monitor m = Monitor.start(TroupeRuntime.get(), settings);
            err.println("bin/deploy: console at " + m.url());
            return m;
        } catch (IllegalArgumentException e) {
            err.println("bin/deploy: " + e.getMessage());
            return null;
        }
    }

    private static void removeHook(final Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is stopping: the hook has run or runs now
        }
    }

    /**
     * Unless the settings name the allowed packages, allows the main class's package for serialization here (and
     * so, through the deployment, in the node JVMs), where the application's active objects and values most likely
     * are; returns what it did, for the user, or null if it did nothing.
     */
    static String allowMainPackage(final String mainClass, final ImmutableConfiguration settings) {
        final String key = SerializationConfig.ALLOWED_PACKAGES_PROP_NAME;
        final int dot = mainClass.lastIndexOf('.');
        if (settings.containsKey(key) || dot < 0) {
            return null;
        }
        final String pkg = mainClass.substring(0, dot);
        if (!pkg.contains(".") || "org.troupe".startsWith(pkg) || pkg.startsWith("org.troupe.")) {
            return null; // "org" would let peers create any org.* class on the class path: allowing it is the user's
        }
        try {
            SerializationConfig.builder().allowPackage(pkg);
        } catch (IllegalArgumentException e) {
            return null; // a JDK package: never allowed whole
        }
        System.setProperty(key, pkg);
        return "allowing package " + pkg + " for serialization (" + key + ")";
    }

    /**
     * Waits for the virtual nodes, showing the progress: on a terminal as one line rewritten in place, otherwise as
     * a line each time it changes; then reports what came and what failed.
     */
    private static void acquire(final Deployment d, final Duration timeout, final PrintStream err) {
        final Console console = System.console();
        final boolean live = console != null && console.isTerminal();
        final long deadline = System.nanoTime() + timeout.toNanos();
        String shown = "";
        while (System.nanoTime() < deadline && !d.virtualNodes().stream().allMatch(DeployMain::done)) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            final String line = d.progress();
            if (!line.equals(shown)) {
                err.print(live ? "\r\033[K" + line : "bin/deploy: " + line + "\n");
                err.flush();
                shown = line;
            }
        }
        final String last = d.progress()
                + (d.virtualNodes().stream().allMatch(DeployMain::done)
                        ? ""
                        : " (timed out after " + timeout.toSeconds() + " s)");
        if (live) {
            err.print("\r\033[K");
        }
        if (live || !last.equals(shown)) {
            err.println("bin/deploy: " + last);
        }
        d.failures().forEach(f -> err.println("bin/deploy: failed: " + f));
    }

    private static boolean done(final VirtualNode vn) {
        return vn.size() >= vn.wanted() || vn.isSettled();
    }

    private static String usage() {
        try (InputStream in = DeployMain.class.getResourceAsStream("deploy-usage.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Troupe and the application's classes ({@code --cp}) in one class loader, where {@code bin/deploy} runs again:
     * Troupe finds the application's classes through its own loader (to decode them, to make their proxies), so
     * they cannot be in a loader of their own below it. The class path the node JVMs get
     * ({@code java.class.path}) is the same: Troupe's, then the application's.
     */
    static final class ApplicationLoader extends URLClassLoader {
        static {
            registerAsParallelCapable();
        }

        private ApplicationLoader(final URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        /**
         * Whether such a loader loaded this class; by name, as the copy of this class there is another class. (No
         * name of its own: stack traces would show it before each frame.)
         */
        static boolean loadedThis() {
            return DeployMain.class.getClassLoader().getClass().getName().equals(ApplicationLoader.class.getName());
        }

        static int runWith(
                final List<Path> application, final String[] args, final PrintStream out, final PrintStream err) {
            // Troupe's first: a jar that bundles its own copy of Troupe (or of its libraries) cannot replace them here
            // or in the node JVMs.
            final List<String> entries = new ArrayList<>(
                    List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
            application.forEach(p -> entries.add(p.toAbsolutePath().toString()));
            final List<URL> urls = new ArrayList<>();
            try {
                for (final String e : entries) {
                    urls.add(Path.of(e).toUri().toURL());
                }
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("class path entry: " + e.getMessage(), e);
            }
            System.setProperty("java.class.path", String.join(File.pathSeparator, entries));
            final ApplicationLoader loader = new ApplicationLoader(urls.toArray(new URL[0]));
            Thread.currentThread().setContextClassLoader(loader);
            try {
                final Method run = loader.loadClass(DeployMain.class.getName())
                        .getDeclaredMethod("run", String[].class, PrintStream.class, PrintStream.class);
                run.setAccessible(true);
                return (int) run.invoke(null, args, out, err);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot run bin/deploy with the application's classes: " + e, e);
            }
        }
    }
}
