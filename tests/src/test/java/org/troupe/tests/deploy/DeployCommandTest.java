package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/deploy as a new user meets it: a master/worker program of one's own, in a package nothing allows and in a
 * directory of its own (compiled here, not on the test class path), run with
 * {@code bin/deploy descriptors/local.xml --cp DIR --run org.acme.pi.Main ARGS} in a JVM of its own, as the script
 * runs it (the script passes its arguments on as they are).
 */
class DeployCommandTest {
    private static final Path LOCAL = Path.of("../descriptors/local.xml");

    @TempDir
    static Path app;

    /** The worker prints on both streams, and the second fails when asked to. */
    @BeforeAll
    static void compileTheApplication() throws IOException {
        final Path src = Files.createDirectories(app.resolve("src/org/acme/pi"));
        Files.writeString(src.resolve("Worker.java"), """
            package org.acme.pi;

            public class Worker {
                public Worker() {
                }

                public Estimate sample(int worker, long n, boolean fail) {
                    System.out.println("worker " + worker + " sampled " + n);
                    System.err.println("worker " + worker + " to stderr");
                    if (fail && worker == 2) {
                        throw new IllegalStateException("worker 2 fails");
                    }
                    return new Estimate(n * 3, n);
                }
            }
            """);
        Files.writeString(src.resolve("Estimate.java"), """
            package org.acme.pi;

            public class Estimate {
                private long in;
                private long n;

                public Estimate() {
                }

                public Estimate(long in, long n) {
                    this.in = in;
                    this.n = n;
                }

                public double value() {
                    return (double) in / n;
                }
            }
            """);
        Files.writeString(src.resolve("Main.java"), """
            package org.acme.pi;

            import java.time.Duration;
            import java.util.List;
            import org.troupe.core.ActiveObjects;
            import org.troupe.core.Node;
            import org.troupe.deploy.Deployment;

            public final class Main {
                public static void main(String[] args) {
                    Deployment d = Deployment.current();
                    System.out.println("deployment " + d.id());
                    List<Node> nodes = d.virtualNode("workers").waitForNodes(2, Duration.ofMinutes(1));
                    double sum = 0;
                    for (int i = 0; i < nodes.size(); i++) {
                        Worker w = ActiveObjects.newActive(Worker.class, new Object[0], nodes.get(i));
                        sum += w.sample(i + 1, 1000, List.of(args).contains("fail")).value();
                    }
                    if (List.of(args).contains("forever")) {
                        System.out.println("calling for ever");
                        Worker w = ActiveObjects.newActive(Worker.class, new Object[0], nodes.get(0));
                        for (long n = 0; ; n++) {
                            w.sample(1, n, false).value();
                        }
                    }
                    System.out.println("pi ~ " + sum / nodes.size() + " on " + nodes.size() + " nodes; args " + List.of(args));
                }
            }
            """);
        final List<String> javac = new ArrayList<>(
                List.of("-d", app.resolve("classes").toString(), "-cp", System.getProperty("java.class.path")));
        try (Stream<Path> files = Files.list(src)) {
            files.forEach(f -> javac.add(f.toString()));
        }
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, javac.toArray(new String[0])));
    }

    private record Outcome(int exit, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }
    }

    /** Runs bin/deploy's main with the launcher's JVM flags, {@code jvms=2}, and its output in files. */
    private static Outcome deploy(final Path dir, final String... args) throws Exception {
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "org.troupe.deploy.DeployMain"));
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("jvms", "2");
        pb.environment().remove("vn");
        pb.environment().remove("TROUPE_SERIALIZATION_ALLOWEDPACKAGES");
        pb.environment().remove("TROUPE_DEPLOY_RELAYOUTPUT");
        final Process p = pb.start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/deploy " + String.join(" ", args) + " ended");
        } finally {
            Leftovers.stop(p);
        }
        return new Outcome(p.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
    }

    private static String deploymentId(final Outcome o) {
        final Matcher m = Pattern.compile("(?m)^deployment (\\S+)$").matcher(o.out());
        assertTrue(m.find(), o.out() + o.err());
        return m.group(1);
    }

    /** What a terminal-less run must never print: the JDK's warnings about Netty, colour codes. */
    private static void assertClean(final Outcome o) {
        for (final String text : List.of(o.out(), o.err())) {
            assertFalse(text.contains("WARNING"), "no JDK warning, from this JVM or a node JVM: " + text);
            assertFalse(text.contains("\u001b"), "no terminal codes: " + text);
        }
    }

    @Test
    void aNewUsersProgramRunsWithItsPackageAllowedAndItsWorkersOutputComesHome(@TempDir final Path dir)
            throws Exception {
        final Outcome o = deploy(
                dir,
                LOCAL.toString(),
                "--cp",
                app.resolve("classes").toString(),
                "--run",
                "org.acme.pi.Main",
                "--cp",
                "x",
                "--timeout");
        final String id = deploymentId(o);
        try {
            assertEquals(0, o.exit(), o.out() + o.err());
            assertTrue(
                    o.out().contains("pi ~ 3.0 on 2 nodes; args [--cp, x, --timeout]\n"),
                    "what follows the main class is the application's: " + o.out());
            assertEquals(
                    List.of("bin/deploy: allowing package org.acme.pi for serialization"
                            + " (troupe.serialization.allowedPackages)"),
                    o.errLines().stream().filter(l -> l.contains("allowing")).toList(),
                    "said once: " + o.err());
            for (final int w : new int[] {1, 2}) {
                final String jvm = "[workers-" + w + "] ";
                assertTrue(
                        o.out().lines().anyMatch(l -> l.matches("\\[workers-[12]] worker " + w + " sampled 1000")),
                        "a node's standard output comes to standard output, after its JVM's name: " + o.out());
                assertTrue(
                        o.err().lines().anyMatch(l -> l.matches("\\[workers-[12]] worker " + w + " to stderr")),
                        "and its standard error to standard error: " + o.err());
                assertTrue(o.err().contains(jvm), "each JVM is named: " + o.err());
            }
            assertEquals(
                    1,
                    o.errLines().stream()
                            .filter(l -> l.equals("bin/deploy: workers: 2/2 nodes"))
                            .count(),
                    "the last progress line once: " + o.err());
            assertFalse(o.err().contains("logs are kept"), "nothing failed: " + o.err());
            assertClean(o);
        } finally {
            Leftovers.assertNothingLeft(id);
        }
    }

    @Test
    void aFailedProgramKeepsTheLogsAndSaysOnceWhere(@TempDir final Path dir) throws Exception {
        final Outcome o = deploy(
                dir, "--cp", app.resolve("classes").toString(), LOCAL.toString(), "--run", "org.acme.pi.Main", "fail");
        final String id = deploymentId(o);
        try {
            assertEquals(1, o.exit(), o.out() + o.err());
            assertTrue(
                    o.err()
                            .contains("bin/deploy: org.acme.pi.Main failed: java.lang.IllegalStateException: worker"
                                    + " 2 fails\n"),
                    o.err());
            final List<String> kept = o.errLines().stream()
                    .filter(l -> l.contains("its logs are kept in "))
                    .toList();
            assertEquals(1, kept.size(), "the logs' place is said once: " + o.err());
            final Path logs = Path.of(kept.getFirst().replaceFirst(".*its logs are kept in ", ""));
            try (Stream<Path> files = Files.list(logs)) {
                assertTrue(
                        files.filter(f -> f.toString().endsWith(".log"))
                                .anyMatch(f -> read(f).contains("worker 2 to stderr")),
                        "the node JVMs' logs are there, with what they printed");
            }
            assertTrue(o.err().lines().anyMatch(l -> l.matches("\\[workers-[12]] worker 2 to stderr")), o.err());
            assertClean(o);
        } finally {
            Leftovers.assertNothingLeft(id); // which deletes the kept logs
        }
    }

    /** An application jar that bundles classes of Troupe's own (a fat jar, an old copy) cannot replace them. */
    @Test
    void theApplicationsClassPathCannotReplaceTroupesClasses(@TempDir final Path dir) throws Exception {
        final Path src = Files.createDirectories(dir.resolve("src/org/troupe/deploy"));
        Files.writeString(src.resolve("DeployMain.java"), """
            package org.troupe.deploy;

            public final class DeployMain {
                public static void main(String[] args) {
                    System.out.println("SHADOWED");
                }
            }
            """);
        assertEquals(
                0,
                ToolProvider.getSystemJavaCompiler()
                        .run(
                                null,
                                null,
                                null,
                                "-d",
                                dir.resolve("fat").toString(),
                                src.resolve("DeployMain.java").toString()));
        final Outcome o =
                deploy(dir, LOCAL.toString(), "--cp", dir.resolve("fat").toString(), "--check");
        assertEquals(0, o.exit(), o.out() + o.err());
        assertFalse(o.out().contains("SHADOWED"), "Troupe's own DeployMain ran: " + o.out());
        assertTrue(o.out().contains("workers"), "the plan: " + o.out());
    }

    /** Ctrl-C stops the deployment under the running program: one line says so, not the program's "failure". */
    @Test
    void anInterruptedRunSaysSoAndLeavesNothing(@TempDir final Path dir) throws Exception {
        final List<String> command = new ArrayList<>(List.of(
                // SIGINT as a terminal sends it, even when these tests run from a script in the background (whose
                // commands, and so this JVM and its children, start with it ignored)
                "env",
                "--default-signal=INT",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                "org.troupe.deploy.DeployMain",
                LOCAL.toString(),
                "--cp",
                app.resolve("classes").toString(),
                "--run",
                "org.acme.pi.Main",
                "forever"));
        final ProcessBuilder pb =
                new ProcessBuilder(command).redirectError(dir.resolve("err").toFile());
        pb.environment().put("jvms", "2");
        final Process p = pb.start();
        String id = null;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine();
                    line != null && !line.equals("calling for ever");
                    line = out.readLine()) {
                if (line.startsWith("deployment ")) {
                    id = line.substring("deployment ".length());
                }
            }
            assertTrue(id != null, "the program ran");
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-INT", Long.toString(p.pid()))
                            .start()
                            .waitFor());
            out.transferTo(Writer.nullWriter());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "bin/deploy ended");
            final String err = Files.readString(dir.resolve("err"));
            assertEquals(130, p.exitValue(), err);
            assertTrue(err.contains("bin/deploy: interrupted: stopping deployment " + id + "\n"), err);
            assertTrue(err.contains("bin/deploy: org.acme.pi.Main stopped with its deployment ("), err);
            assertFalse(err.contains("Main failed") || err.contains("\tat "), "no failure, no stack trace: " + err);
        } finally {
            Leftovers.stop(p);
            if (id != null) {
                Leftovers.assertNothingLeft(id);
            }
        }
    }

    private static String read(final Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
