package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * apps/montecarlo as a user gets it: a Maven project of its own, built against the installed troupe-all, run with
 * plain {@code java} on bin/classpath's class path and with bin/deploy on local node JVMs, as the README says.
 */
class ExampleProjectTest {
    private static final Path HOME = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern DEPLOYMENT = Pattern.compile("deployment (d[0-9a-f]+)");
    /** The failing member's rethrown failure names it and points at the line of Main that touched it. */
    private static final Pattern CALLERS_LINE = Pattern.compile(
            "Suppressed: org\\.troupe\\.core\\.exceptions\\.TouchedAt: Worker\\.throwDarts on Worker#\\S+ \\(member 2 of 4\\)"
                    + "[^\\n]*\\n\\s+at org\\.acme\\.pi\\.Main\\.main\\(Main\\.java:\\d+\\)");

    @TempDir
    static Path project;

    private static Path jar;

    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Builds a copy of the example offline, with the Maven repository this build installed Troupe into. */
    @BeforeAll
    static void build() throws Exception {
        final Path source = HOME.resolve("apps/montecarlo");
        try (Stream<Path> files = Files.walk(source)) {
            for (final Path f : files.filter(p -> !source.relativize(p).startsWith("target"))
                    .toList()) {
                final Path to = project.resolve(source.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        final List<String> mvn = new ArrayList<>(List.of("mvn", "-B", "-q", "-o", "package"));
        final String repository = System.getProperty("troupe.test.localRepository");
        if (repository != null) {
            mvn.add("-Dmaven.repo.local=" + repository);
        }
        final Run built = run(project, Map.of(), mvn);
        assertEquals(0, built.exit(), "the example builds against the installed troupe-all: " + built);
        jar = project.resolve("target/montecarlo.jar");
        assertTrue(Files.isRegularFile(jar), jar + " was made");
    }

    @Test
    void runsInOneJvmOnBinClasspath() throws Exception {
        final Run cp = run(HOME, Map.of(), List.of("bin/classpath"));
        assertEquals(0, cp.exit(), cp.toString());
        final Run r = run(
                HOME,
                Map.of(),
                List.of(
                        javaCommand(),
                        "--sun-misc-unsafe-memory-access=allow",
                        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
                        "-cp",
                        cp.out().strip() + ":" + jar,
                        "-Dtroupe.serialization.allowedPackages=org.acme.pi",
                        "org.acme.pi.Main",
                        "--fail",
                        "2",
                        "--darts",
                        "100000"));
        assertFailingMemberReported(r);
        assertTrue(r.out().contains("4 workers on 1 node(s)"), r.toString());
    }

    @Test
    void runsWithBinDeployOnNodeJvms() throws Exception {
        final Run r = run(
                HOME,
                Map.of("jvms", "4", "TROUPE_CORE_HEARTBEATMILLIS", "200", "TROUPE_CORE_PEERTIMEOUTMILLIS", "3000"),
                List.of(
                        "bin/deploy",
                        "--cp",
                        jar.toString(),
                        "descriptors/local.xml",
                        "--run",
                        "org.acme.pi.Main",
                        "--fail",
                        "2",
                        "--darts",
                        "100000"));
        assertFailingMemberReported(r);
        assertTrue(r.out().contains("4 workers on 4 node(s)"), r.toString());
        assertTrue(
                Pattern.compile("(?m)^\\[workers-[1-4]\\] worker 3: throwing 100000 darts$")
                        .matcher(r.out())
                        .find(),
                "a worker's output comes home prefixed with its node JVM: " + r);
        assertEquals(
                1,
                r.err().split("allowing package org\\.acme\\.pi for serialization", -1).length - 1,
                "bin/deploy allows the main class's package, and says so once: " + r);
        final Matcher m = DEPLOYMENT.matcher(r.err());
        assertTrue(m.find(), "bin/deploy names its deployment: " + r);
        Leftovers.assertNothingLeft(m.group(1));
    }

    /** What every run with --fail 2 prints: the result group without a crash, then the caller's line. */
    private static void assertFailingMemberReported(final Run r) {
        assertEquals(1, r.exit(), "a failed worker fails the program: " + r);
        assertTrue(
                r.out().contains("<failed: java.lang.IllegalStateException: worker 2 is broken (--fail 2)>"),
                "the result group prints the failed member without throwing: " + r);
        assertTrue(r.out().contains("pi ~ 3.1"), "the other workers' tallies make an estimate: " + r);
        assertTrue(
                r.err().contains("member 2 failed:\njava.lang.IllegalStateException: worker 2 is broken"),
                r.toString());
        assertTrue(CALLERS_LINE.matcher(r.err()).find(), "the failure names the member and the caller's line: " + r);
        assertTrue(
                r.err().contains("combined: Worker.throwDarts on a group of 4 failed for member 2 (Worker#"),
                "the combined reply names the failed member: " + r);
        assertFalse((r.out() + r.err()).contains("sun.misc.Unsafe"), "no Unsafe warnings: " + r);
        assertFalse((r.out() + r.err()).contains("\u001b["), "no colour codes off a terminal: " + r);
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static Run run(final Path dir, final Map<String, String> env, final List<String> command)
            throws IOException, InterruptedException {
        final Path out = Files.createTempFile(project, "out", ".txt");
        final Path err = Files.createTempFile(project, "err", ".txt");
        final ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        // The launchers and Maven run on this JDK (>= 25); Maven's own Unsafe warnings are silenced as bin/ does.
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("MAVEN_OPTS", "--sun-misc-unsafe-memory-access=allow");
        pb.environment().putAll(env);
        final Process p = pb.start();
        try {
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), String.join(" ", command) + " ended");
            return new Run(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
