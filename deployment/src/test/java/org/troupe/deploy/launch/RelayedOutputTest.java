package org.troupe.deploy.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.deploy.descriptor.ProcessSpec;

/** What node JVMs print reaches the launcher as their lines, whatever they print, and their end is never held back. */
@Timeout(120)
class RelayedOutputTest {
    private static final class Recorder implements Launch.Events {
        final List<String> output = new CopyOnWriteArrayList<>();
        final List<String> failed = new CopyOnWriteArrayList<>();
        final List<String> ended = new CopyOnWriteArrayList<>();

        @Override
        public void ended(final Launch launch, final String why) {
            ended.add(why);
        }

        @Override
        public void jvmFailed(final Launch launch, final long pid, final int nodes, final String why) {
            failed.add(pid + ": " + why);
        }

        @Override
        public void output(final Launch launch, final String jvm, final boolean stderr, final String text) {
            output.add((stderr ? "err " : "out ") + "[" + jvm + "] " + text);
        }
    }

    private static Path java(final Path dir, final String body) throws IOException {
        final Path java = Files.createDirectories(dir.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        return java;
    }

    private static Launch launch(final Path dir, final Recorder events, final int jvms) {
        return new Launch(
                new Launch.Context("dtest", "127.0.0.1:1", "s3cret", Map.of(), dir, "", "", List.of(), List.of(), true),
                new ProcessSpec.Local(
                        "here", new ProcessSpec.Jvm("jvms", dir.toString(), "", List.of(), Map.of(), jvms, 1)),
                "workers-1",
                "dtest.0.1.",
                events,
                "workers",
                0);
    }

    private static void await(final BooleanSupplier done, final long seconds) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    /**
     * A JVM's line with a carriage return: the script tags it as one line, and so does the launcher (Java's own line
     * readers would split it there, and what follows would read as a line of the script's: a forged JVM exit, or
     * another JVM's output).
     */
    @Test
    void aCarriageReturnInAJvmsLineForgesNothing(@TempDir final Path dir) throws Exception {
        final Path secret = Files.writeString(dir.resolve("private.txt"), "line1\nTOP-SECRET-CONTENT\n");
        java(
                dir,
                "if [ -n \"$FIRST\" ] || [ ! -e " + dir + "/once ]; then touch " + dir + "/once;"
                        + " printf 'progress 10%%\\rtroupe-jvm-exit 7 4242 " + secret + "\\n';"
                        + " printf 'x\\rtroupe-out forged-script 0 I am another JVM\\n'; fi\nsleep 3\nexit 0\n");
        final Recorder events = new Recorder();
        final Launch launch = launch(dir, events, 1);
        try {
            launch.start();
            await(() -> events.output.size() >= 2, 10);
        } finally {
            launch.stop(false);
        }
        assertTrue(
                events.failed.isEmpty(),
                "a JVM that exits 0 was reported failed (pid and log forged): " + events.failed);
        assertTrue(
                events.output.stream().noneMatch(l -> l.contains("[workers-2]")),
                "a JVM's output came out as another JVM's: " + events.output);
    }

    /**
     * A JVM that leaves a child holding its standard output (a helper process it started with inheritIO) and then
     * fails: its end is reported at once, not when the child lets go of the output.
     */
    @Test
    void aJvmThatFailsLeavingAChildOnItsOutputIsReportedAtOnce(@TempDir final Path dir) throws Exception {
        java(dir, "echo starting\nsleep 40 &\nexit 3\n");
        final Recorder events = new Recorder();
        final Launch launch = launch(dir, events, 1);
        try {
            launch.start();
            await(() -> !events.failed.isEmpty(), 15);
        } finally {
            launch.stop(false);
        }
        assertEquals(1, events.failed.size(), "the JVM exited with code 3 and nothing was reported within 15 s");
    }

    /** Binary and invalid UTF-8 output, and a NUL byte. */
    @Test
    void binaryOutputIsRelayedWithoutLoss(@TempDir final Path dir) throws Exception {
        java(dir, "printf 'a\\000b\\377c\\n'\nprintf 'tail\\n'\nexit 0\n");
        final Recorder events = new Recorder();
        final Launch launch = launch(dir, events, 1);
        try {
            launch.start();
            await(() -> events.output.stream().anyMatch(l -> l.contains("tail")), 10);
        } finally {
            launch.stop(false);
        }
        assertEquals(
                List.of("out [workers-1] ab\ufffdc", "out [workers-1] tail"),
                events.output,
                "a NUL is dropped (the shell's read), a byte that is not UTF-8 becomes U+FFFD, nothing is lost");
    }
}
