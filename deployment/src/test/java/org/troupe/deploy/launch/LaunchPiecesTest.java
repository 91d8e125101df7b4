package org.troupe.deploy.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.deploy.descriptor.ProcessSpec;

/** The pieces a launch is made of, on this host: quoting, the JVM script, private files, staging. */
class LaunchPiecesTest {
    @Test
    void quotedWordsReachTheCommandUnchanged() {
        final LocalHost host = new LocalHost("dtest");
        try {
            final String tricky = "it's $HOME `id` \"x\" \\ ;|&";
            final Host.Result r = host.run("printf '%s' " + Scripts.quote(tricky), Duration.ofSeconds(10));
            assertEquals(0, r.exitCode(), r.explain());
            assertEquals(tricky, r.out());
        } finally {
            host.release(false);
        }
    }

    /**
     * The node log: the JDK's warnings first, then what went wrong. The message quotes the failure and its
     * cause, not the warnings every JVM prints.
     */
    @Test
    void aLogTailQuotesWhatWentWrongNotTheJvmsWarnings() {
        final String log = String.join(
                "\n",
                "WARNING: A terminally deprecated method in sun.misc.Unsafe has been called",
                "WARNING: sun.misc.Unsafe::allocateMemory has been called by io.netty.util.internal.PlatformDependent0",
                "WARNING: Please consider reporting this to the maintainers of class io.netty.util.internal.Platform",
                "WARNING: sun.misc.Unsafe::allocateMemory will be removed in a future release",
                "[main] INFO org.troupe.core.NodeMain - starting",
                "[main] ERROR org.troupe.core.NodeMain - Nodes [n1] could not register with their parent at"
                        + " 127.0.0.1:33325: Connection refused",
                "org.troupe.core.exceptions.TroupeException: Cannot connect to 127.0.0.1:33325",
                "\tat org.troupe.core.remote.Remoting.connect(Remoting.java:250)",
                "\tat org.troupe.core.NodeMain.main(NodeMain.java:120)",
                "Caused by: java.net.ConnectException: Connection refused",
                "\t... 2 more",
                "[main] INFO org.troupe.core.NodeMain - bye");
        assertEquals(
                "[main] INFO org.troupe.core.NodeMain - starting | [main] ERROR org.troupe.core.NodeMain - Nodes"
                        + " [n1] could not register with their parent at 127.0.0.1:33325: Connection refused |"
                        + " org.troupe.core.exceptions.TroupeException: Cannot connect to 127.0.0.1:33325 | Caused by:"
                        + " java.net.ConnectException: Connection refused | [main] INFO org.troupe.core.NodeMain - bye",
                Scripts.tellingLines(log, 5),
                "the errors, then the last other lines, in the log's order");
        assertEquals(
                "",
                Scripts.tellingLines(
                        "WARNING: Use --enable-native-access=ALL-UNNAMED to avoid a warning\n"
                                + "OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot loader classes\n",
                        6));
        assertEquals("a | b", Scripts.tellingLines("a\nb\n", 6));
    }

    @Test
    void theJvmScriptNamesTheSecretFileButNotTheSecret() {
        final String script = Scripts.jvms(new Scripts.JvmCommand(
                "/opt/jdk/bin/java",
                "/a.jar:/b dir/c.jar",
                List.of("-Xmx1g"),
                Map.of("TROUPE_CORE_HEARTBEATMILLIS", "200"),
                3,
                2,
                "/w/secret",
                "10.0.0.1:4000",
                "d1.0.1.",
                "/w/logs",
                "vn-1",
                true,
                false,
                new Scripts.JvmNames("vn-", 0, false)));
        assertTrue(
                script.contains("'/opt/jdk/bin/java' '-Dtroupe.core.secretFile=/w/secret'"
                        + " '-XX:+ExitOnOutOfMemoryError' '-Xmx1g' -cp"
                        + " '/a.jar:/b dir/c.jar' org.troupe.core.NodeMain --parent '10.0.0.1:4000' --name-prefix 'd1.0.1.'"
                        + " --nodes 2"),
                script);
        assertTrue(script.contains("export TROUPE_CORE_HEARTBEATMILLIS='200'"), script);
        assertTrue(script.contains("while [ $i -lt 3 ]"), script);
        assertTrue(script.endsWith("wait\nrm -f '/w/secret'\n"), "the secret goes when the JVMs end: " + script);
    }

    /**
     * The nodes, their processors and the walltime go in one resource list: Slurm's qsub keeps only its last -l, and
     * with nodes=2 in an earlier one booked a single node.
     */
    @Test
    void qsubAsksForNodesProcessorsAndWalltimeInOneResourceList() {
        final ProcessSpec.Pbs pbs = new ProcessSpec.Pbs(
                "q", 2, 3, "00:10:00", "", new ProcessSpec.Jvm("j", "", "", List.of(), Map.of(), 1, 1));
        final String submit = BatchSystem.PBS.submit(pbs, "troupe-d1-vn-1", "/w/logs/vn-1-job.log", "/w/vn-1-job.sh");
        assertEquals(
                "qsub -N 'troupe-d1-vn-1' -l 'nodes=2:ppn=3,walltime=00:10:00' -j oe -o '/w/logs/vn-1-job.log'"
                        + " '/w/vn-1-job.sh'",
                submit);
    }

    /**
     * A java that prints two lines on its standard output (the first with its pid and arguments) and one on its error,
     * the last without a newline.
     */
    private static Path printingJava(final Path dir, final int exitCode) throws IOException {
        final Path java = Files.createDirectories(dir.resolve("bin")).resolve("java");
        Files.writeString(
                java,
                "#!/bin/sh\necho \"out one $$ args: $*\"\necho 'err one' >&2\nsleep 0.1\n"
                        + "printf 'out last, no newline'\nexit " + exitCode + "\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        return java;
    }

    /** Runs the JVM script of {@code count} printing JVMs to its end; returns the lines it printed. */
    private static List<String> runPrintingScript(
            final LocalHost host, final Path java, final int count, final boolean relay) throws Exception {
        final String script = host.workDir() + "/vn-1-jvms.sh";
        host.write(
                script,
                Scripts.jvms(new Scripts.JvmCommand(
                                java.toString(),
                                "",
                                List.of(),
                                Map.of(),
                                count,
                                1,
                                host.workDir() + "/vn-1.secret",
                                "127.0.0.1:1",
                                "d1.0.1.",
                                host.workDir() + "/logs",
                                "vn-1",
                                true,
                                relay,
                                new Scripts.JvmNames("vn-", 0, false)))
                        .getBytes(StandardCharsets.UTF_8),
                0700);
        final List<String> lines = new CopyOnWriteArrayList<>();
        final CompletableFuture<Integer> exit = new CompletableFuture<>();
        host.start("exec sh " + Scripts.quote(script), lines::add).onExit(exit::complete);
        assertEquals(0, exit.get(60, TimeUnit.SECONDS));
        return lines;
    }

    @Test
    void aRelayingJvmScriptPrintsEachLineOfEachJvmTaggedAndKeepsThemInItsLog(@TempDir final Path dir) throws Exception {
        final LocalHost host = new LocalHost("dtest");
        try {
            final List<String> lines = runPrintingScript(host, printingJava(dir, 0), 2, true);
            for (final String jvm : List.of("vn-1", "vn-2")) {
                final List<String> mine = lines.stream()
                        .filter(l -> l.matches("troupe-(out|err) " + jvm + " .*"))
                        .toList();
                assertEquals(3, mine.size(), lines.toString());
                assertTrue(
                        mine.stream().anyMatch(l -> l.startsWith(Scripts.OUT) && l.matches(".* out one .*")),
                        lines.toString());
                assertTrue(
                        mine.contains(mine.getFirst().replaceFirst(" out one .*$", " out last, no newline")),
                        "a last line without a newline is relayed too: " + lines);
                final String err = Scripts.ERR + jvm + " err one";
                assertTrue(mine.contains(err), lines.toString());
                final String exit = lines.stream()
                        .filter(l -> l.startsWith(Scripts.JVM_EXIT) && l.endsWith("/" + jvm + ".log"))
                        .findFirst()
                        .orElseThrow();
                assertTrue(
                        lines.indexOf(exit) > lines.indexOf(mine.getLast()),
                        "a JVM's lines come before its end: " + lines);
                final String log = Files.readString(Path.of(exit.split(" ", 4)[3]));
                assertTrue(
                        log.contains("out one") && log.contains("err one\n") && log.contains("out last, no newline\n"),
                        log);
            }
            try (var files = Files.list(Path.of(host.workDir(), "logs"))) {
                assertTrue(
                        files.noneMatch(f ->
                                f.toString().endsWith(".out") || f.toString().endsWith(".err")),
                        "the pipes go when the JVMs end");
            }
        } finally {
            host.release(false);
        }
    }

    @Test
    void aJvmScriptThatDoesNotRelayLeavesTheLinesInTheLogs(@TempDir final Path dir) throws Exception {
        final LocalHost host = new LocalHost("dtest");
        try {
            final List<String> lines = runPrintingScript(host, printingJava(dir, 0), 1, false);
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.getFirst().startsWith(Scripts.JVM_EXIT + "0 "), lines.toString());
            final String log = Files.readString(Path.of(lines.getFirst().split(" ", 4)[3]));
            assertTrue(log.contains("out one") && log.contains("err one") && log.contains("out last"), log);
        } finally {
            host.release(false);
        }
    }

    /** What a launch reports, in order. */
    private static final class Recorder implements Launch.Events {
        final List<String> output = new CopyOnWriteArrayList<>();
        final List<String> failed = new CopyOnWriteArrayList<>();

        @Override
        public void ended(final Launch launch, final String why) {}

        @Override
        public void jvmFailed(final Launch launch, final long pid, final int nodes, final String why) {
            failed.add(why);
        }

        @Override
        public void output(final Launch launch, final String jvm, final boolean stderr, final String text) {
            output.add((stderr ? "err " : "out ") + "[" + jvm + "] " + text);
        }
    }

    @Test
    void aLaunchNamesEachJvmAfterItsVirtualNodeCountingTheEarlierLaunchesJvms(@TempDir final Path dir)
            throws Exception {
        printingJava(dir, 3);
        final ProcessSpec chain = new ProcessSpec.Local(
                "here", new ProcessSpec.Jvm("jvms", dir.toString(), "", List.of(), Map.of(), 2, 1));
        final Recorder events = new Recorder();
        final Launch launch = new Launch(
                new Launch.Context(
                        "dtest",
                        "127.0.0.1:1",
                        "s3cret",
                        Map.of(),
                        dir,
                        "",
                        "",
                        List.of("--sun-misc-unsafe-memory-access=allow"),
                        List.of("-Dtroupe.core.callTimeoutMillis=5000"),
                        true),
                chain,
                "workers-2",
                "dtest.0.2.",
                events,
                "workers",
                3);
        try {
            launch.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (events.failed.size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            for (final String jvm : List.of("workers-4", "workers-5")) {
                assertTrue(
                        events.output.stream()
                                .anyMatch(l -> l.matches("out \\[" + jvm + "] out one [0-9]+ args: .*"
                                        + " --sun-misc-unsafe-memory-access=allow -Dtroupe.core.callTimeoutMillis=5000 .*"
                                        + "org.troupe.core.NodeMain .*")),
                        "the lines, the context's JVM flags, and its settings for JVMs of this host: " + events.output);
                assertTrue(events.output.contains("err [" + jvm + "] err one"), events.output.toString());
                assertTrue(events.output.contains("out [" + jvm + "] out last, no newline"), events.output.toString());
            }
            assertEquals(6, events.output.size(), events.output.toString());
            assertEquals(2, events.failed.size(), "each JVM's failure is still reported: " + events.failed);
            assertTrue(events.failed.getFirst().contains("exited with code 3"), events.failed.toString());
        } finally {
            launch.stop(false);
        }
        assertEquals(null, launch.keptLogs(), "logs not kept: nothing to say");
    }

    @Test
    void whatStoppedJvmsPrintLastIsRelayedBeforeTheStopReturns(@TempDir final Path dir) throws Exception {
        final Path java = Files.createDirectories(dir.resolve("bin")).resolve("java");
        Files.writeString(
                java,
                "#!/bin/sh\ntrap 'sleep 0.2; echo \"stopped $$\"; exit 0' TERM\necho \"up $$\"\n"
                        + "while :; do sleep 0.05; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        final Recorder events = new Recorder();
        final Launch launch = new Launch(
                new Launch.Context("dtest", "127.0.0.1:1", "s3cret", Map.of(), dir, "", "", List.of(), List.of(), true),
                new ProcessSpec.Local(
                        "here", new ProcessSpec.Jvm("jvms", dir.toString(), "", List.of(), Map.of(), 3, 1)),
                "workers-1",
                "dtest.0.1.",
                events,
                "workers",
                0);
        try {
            launch.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (events.output.stream().filter(l -> l.contains(" up ")).count() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } finally {
            launch.stop(false);
        }
        assertEquals(
                3,
                events.output.stream()
                        .filter(l -> l.matches("out \\[workers-[123]] stopped [0-9]+"))
                        .count(),
                events.output.toString());
    }

    @Test
    void stoppingTheJvmScriptStopsEveryJvmItStarted(@TempDir final Path dir) throws Exception {
        final Path java = Files.createDirectories(dir.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nexec sleep 317\n"); // a JVM that never calls home
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        final LocalHost host = new LocalHost("dtest");
        try {
            final String secret = host.workDir() + "/vn-1" + Scripts.SECRET_SUFFIX;
            host.write(secret, "s3cret-value".getBytes(StandardCharsets.UTF_8), 0600);
            final String script = host.workDir() + "/vn-1-jvms.sh";
            host.write(
                    script,
                    Scripts.jvms(new Scripts.JvmCommand(
                                    java.toString(),
                                    "",
                                    List.of(),
                                    Map.of(),
                                    6,
                                    1,
                                    secret,
                                    "127.0.0.1:1",
                                    "d1.0.1.",
                                    host.workDir() + "/logs",
                                    "vn-1",
                                    true,
                                    false,
                                    new Scripts.JvmNames("vn-", 0, false)))
                            .getBytes(StandardCharsets.UTF_8),
                    0700);
            final List<String> lines = new CopyOnWriteArrayList<>();
            final Host.Background running = host.start("exec sh " + Scripts.quote(script), lines::add);
            while (sleepers().isEmpty()) {
                Thread.sleep(1); // the first JVM is up; the script may still be forking the others
            }
            running.stop();
            assertEquals(List.of(), sleepers(), "every JVM is stopped once stop() returns");
            assertFalse(Files.exists(Path.of(secret)), "the script deletes the secret when it is stopped");
        } finally {
            host.release(false);
        }
    }

    @Test
    void aStoppedJvmScriptKillsAJvmThatIgnoresTermAfterItsGraceTime(@TempDir final Path dir) throws Exception {
        final Path java = Files.createDirectories(dir.resolve("bin")).resolve("stubborn-java");
        Files.writeString(java, "#!/bin/sh\ntrap '' TERM\nwhile :; do sleep 0.2; done\n"); // deaf to TERM
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        final Path logs = Files.createDirectories(dir.resolve("logs"));
        final Path script = dir.resolve("jvms.sh");
        final int graceTenths = 5;
        Files.writeString(
                script,
                Scripts.jvms(
                        new Scripts.JvmCommand(
                                java.toString(),
                                "",
                                List.of(),
                                Map.of(),
                                2,
                                1,
                                dir.resolve("secret").toString(),
                                "127.0.0.1:1",
                                "d1.0.1.",
                                logs.toString(),
                                "vn-1",
                                true,
                                false,
                                new Scripts.JvmNames("vn-", 0, false)),
                        graceTenths));
        final Process sh = new ProcessBuilder("sh", script.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("out").toFile())
                .start();
        try {
            while (stubborn().size() < 2) {
                Thread.sleep(10);
            }
            sh.destroy(); // TERM, as a deployment stops it
            assertTrue(
                    sh.waitFor(graceTenths / 10 + 20, TimeUnit.SECONDS),
                    "the script ends, though its JVMs ignore TERM");
            assertEquals(143, sh.exitValue());
            assertEquals(List.of(), stubborn(), "the JVMs that ignored TERM were killed");
        } finally {
            sh.destroyForcibly();
            stubborn().forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static List<ProcessHandle> stubborn() {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().orElse("").contains("stubborn-java"))
                .toList();
    }

    private static List<ProcessHandle> sleepers() {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().orElse("").contains("sleep 317"))
                .toList();
    }

    @Test
    void filesAreWrittenWithTheirModeAndTheSecretGoesFirstOnRelease() throws IOException {
        final LocalHost host = new LocalHost("dtest");
        final Path dir = Path.of(host.workDir());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        host.write(
                host.workDir() + "/vn-1" + Scripts.SECRET_SUFFIX,
                "s3cret-value".getBytes(StandardCharsets.UTF_8),
                0600);
        host.write(host.workDir() + "/logs/a.log", "started".getBytes(StandardCharsets.UTF_8), 0644);
        assertEquals(
                "rw-------",
                PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(dir.resolve("vn-1" + Scripts.SECRET_SUFFIX))));
        assertEquals(
                "rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("logs/a.log"))));
        host.release(true);
        assertFalse(Files.exists(dir.resolve("vn-1" + Scripts.SECRET_SUFFIX)), "the secret is always deleted");
        assertTrue(Files.exists(dir.resolve("logs/a.log")), "logs stay when asked");
        host.release(false);
        assertFalse(Files.exists(dir));
    }

    @Test
    void aClassesDirectoryPacksToTheSameBytesWhateverItsTimes(@TempDir final Path dir) throws IOException {
        Files.createDirectories(dir.resolve("org/x"));
        Files.writeString(dir.resolve("org/x/A.class"), "a");
        Files.writeString(dir.resolve("org/x/B.class"), "b");
        final byte[] first = Staging.jarOf(dir);
        Files.setLastModifiedTime(dir.resolve("org/x/A.class"), FileTime.fromMillis(12_345_000L));
        assertArrayEquals(first, Staging.jarOf(dir));
        Files.writeString(dir.resolve("org/x/B.class"), "changed");
        assertFalse(Arrays.equals(first, Staging.jarOf(dir)));
    }

    /** This host, with its deployment directory two levels down {@code root}, so the class cache is in there. */
    private static final class NestedHost implements Host {
        private final LocalHost local = new LocalHost("dtest");
        private final Path work;

        NestedHost(final Path root) throws IOException {
            work = Files.createDirectories(root.resolve("deployments").resolve("d1"));
        }

        @Override
        public String describe() {
            return local.describe();
        }

        @Override
        public String workDir() {
            return work.toString();
        }

        @Override
        public void write(final String path, final byte[] content, final int mode) {
            local.write(path, content, mode);
        }

        @Override
        public Result run(final String script, final Duration timeout) {
            return local.run(script, timeout);
        }

        @Override
        public Background start(final String script, final Consumer<String> lines) {
            return local.start(script, lines);
        }

        @Override
        public void release(final boolean keepLogs) {
            local.release(keepLogs);
        }
    }

    @Test
    void aStagedCopyIsReusedOnlyWhileItsContentMatchesItsName(@TempDir final Path dir) throws IOException {
        final Path jar = dir.resolve("app.jar");
        Files.write(jar, new byte[] {1, 2, 3, 4, 5});
        final NestedHost host = new NestedHost(dir.resolve("home"));
        try {
            final Path staged = Path.of(Staging.stage(host, jar.toString()));
            assertArrayEquals(Files.readAllBytes(jar), Files.readAllBytes(staged));
            final FileTime written = Files.getLastModifiedTime(staged);
            assertEquals(staged, Path.of(Staging.stage(host, jar.toString())));
            assertEquals(written, Files.getLastModifiedTime(staged), "an intact copy is not sent again");
            Files.write(staged, new byte[] {1, 2}); // cut short, as by a lost connection
            assertEquals(staged, Path.of(Staging.stage(host, jar.toString())));
            assertArrayEquals(Files.readAllBytes(jar), Files.readAllBytes(staged), "a damaged copy is sent again");
        } finally {
            host.release(false);
        }
    }
}
