package org.troupe.deploy;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.troupe.core.TroupeException;
import org.troupe.deploy.descriptor.Descriptor;
import org.troupe.deploy.descriptor.DescriptorLoader;

/**
 * {@code bin/deploy}: checks a descriptor and prints its plan, or deploys it and runs an application main that uses
 * its virtual nodes ({@link Deployment#current()}), then stops everything.
 */
public final class DeployMain {
    static final String USAGE = """
        Usage: bin/deploy DESCRIPTOR --check
               bin/deploy [--cp CLASSPATH] DESCRIPTOR [--timeout SECONDS] --run MAIN_CLASS [ARGS...]
          --check     validate the descriptor and print the plan: which JVMs start where, through which chain.
          --cp        the application's classes and jars (the node JVMs get them too).
          --run       deploy, wait until every virtual node has the nodes it wants (or no more can come, or the
                      timeout passes; default 120 s), showing a progress line per virtual node, then call
                      MAIN_CLASS.main(ARGS) in this JVM; it finds the nodes with Deployment.current().
                      Everything deployed is stopped when main returns, throws, or this JVM is interrupted.
          Variables ${name} in the descriptor come from -Dname=value (JAVA_OPTS), the environment, or the
          descriptor's own <variables>. Exit codes: 0 done, 1 the application failed, 2 a deployment error
          (a bad descriptor, or a virtual node that got no node at all; fewer nodes than wanted is not one),
          64 bad usage.
        """;

    private DeployMain() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            (args.length == 0 ? err : out).print(USAGE);
            return args.length == 0 ? 64 : 0;
        }
        final Path file = Path.of(args[0]);
        Duration timeout = Duration.ofSeconds(120);
        int i = 1;
        if (i + 1 < args.length && args[i].equals("--timeout")) {
            if (!args[i + 1].matches("[0-9]{1,6}")) {
                return usage(err, "--timeout takes a number of seconds, not '" + args[i + 1] + "'");
            }
            timeout = Duration.ofSeconds(Long.parseLong(args[i + 1]));
            i += 2;
        }
        if (i >= args.length || !List.of("--check", "--run").contains(args[i])) {
            return usage(err, "say --check or --run MAIN_CLASS after the descriptor");
        }
        if (!Files.isRegularFile(file)) {
            return usage(err, "descriptor " + file + " does not exist");
        }
        final Descriptor descriptor;
        try {
            descriptor = DescriptorLoader.load(file);
        } catch (TroupeException e) {
            err.println("bin/deploy: " + e.getMessage());
            return 2;
        }
        if (args[i].equals("--check")) {
            out.print(descriptor.plan());
            return 0;
        }
        if (i + 1 >= args.length) {
            return usage(err, "--run needs the application's main class");
        }
        final Method main;
        try {
            main = Class.forName(args[i + 1]).getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) {
                return usage(err, args[i + 1] + ".main(String[]) is not static");
            }
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            return usage(err, "no class " + args[i + 1] + " with a main(String[]) on the class path (add the"
                + " application's classes with bin/deploy --cp PATH)");
        }
        try (Deployment d = new Deployment(descriptor)) {
            try {
                d.start();
            } catch (TroupeException e) {
                err.println("bin/deploy: cannot deploy: " + e.getMessage());
                return 2;
            }
            acquire(d, timeout, err);
            final List<String> empty = d.virtualNodes().stream().filter(vn -> vn.size() == 0).map(VirtualNode::name)
                .toList();
            if (!empty.isEmpty()) {
                err.println("bin/deploy: no node arrived for " + String.join(", ", empty) + "; "
                    + args[i + 1] + " is not run");
                return 2;
            }
            d.makeCurrent();
            try {
                main.invoke(null, (Object) Arrays.copyOfRange(args, i + 2, args.length));
                return 0;
            } catch (InvocationTargetException e) {
                err.println("bin/deploy: " + args[i + 1] + " failed: " + e.getCause());
                e.getCause().printStackTrace(err);
                return 1;
            } catch (IllegalAccessException e) {
                err.println("bin/deploy: cannot call " + args[i + 1] + ".main: " + e.getMessage());
                return 1;
            }
        }
    }

    /** Waits for the virtual nodes with a live progress line, then reports what came and what failed. */
    private static void acquire(final Deployment d, final Duration timeout, final PrintStream err) {
        final boolean live = System.console() != null;
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
                err.print(live ? "\r\033[K" + line : line + "\n");
                err.flush();
                shown = line;
            }
        }
        err.print(live ? "\r\033[K" : "");
        err.println("bin/deploy: " + d.progress() + (d.virtualNodes().stream().allMatch(DeployMain::done) ? ""
            : " (timed out after " + timeout.toSeconds() + " s)"));
        d.failures().forEach(f -> err.println("bin/deploy: failed: " + f));
    }

    private static boolean done(final VirtualNode vn) {
        return vn.size() >= vn.wanted() || vn.isSettled();
    }

    private static int usage(final PrintStream err, final String message) {
        err.println("bin/deploy: " + message);
        err.print(USAGE);
        return 64;
    }
}
