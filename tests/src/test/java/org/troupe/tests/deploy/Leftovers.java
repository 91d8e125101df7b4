package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a deployment may leave behind: its processes (their command lines name its id) and files; and stopping what
 * the tests start.
 */
public final class Leftovers {
    private static final long GRACE_NANOS = 20_000_000_000L;

    private Leftovers() {}

    /** The command lines of this machine's processes that name deployment {@code id}. */
    public static List<String> processes(final String id) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .map(Leftovers::commandLine)
                .filter(c -> c.contains(id))
                .toList();
    }

    /** From /proc: ProcessHandle.Info cuts command lines at 4 KiB, and a class path is longer. */
    static String commandLine(final ProcessHandle p) {
        try {
            return new String(
                            Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
                            StandardCharsets.UTF_8)
                    .replace('\0', ' ');
        } catch (IOException e) {
            return ""; // it ended meanwhile
        }
    }

    /**
     * Asserts that no process of deployment {@code id} remains, nor any of its secret files (here or in this user's
     * {@code ~/.troupe}), giving a JVM that is exiting (its parent link just closed) a bounded grace period to
     * finish; then deletes the logs the deployment kept, which a test has no use for.
     */
    static void assertNothingLeft(final String id) throws InterruptedException, IOException {
        final long deadline = System.nanoTime() + GRACE_NANOS;
        while ((!processes(id).isEmpty() || !secrets(id).isEmpty()) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), processes(id), "processes of deployment " + id + " still running");
        assertEquals(List.of(), secrets(id), "secret files of deployment " + id + " left");
        for (final Path dir : directories(id)) {
            deleteTree(dir);
        }
    }

    /** Deletes {@code dir} and everything under it. */
    static void deleteTree(final Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** The directories a deployment makes: a temporary one here per launch, one in ~/.troupe per SSH host. */
    private static List<Path> directories(final String id) throws IOException {
        final List<Path> dirs = new ArrayList<>();
        try (Stream<Path> tmp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            tmp.filter(d -> d.getFileName().toString().startsWith("troupe-" + id + "-"))
                    .forEach(dirs::add);
        }
        final Path remote = Path.of(System.getProperty("user.home"), ".troupe", "deployments", id);
        if (Files.exists(remote)) {
            dirs.add(remote);
        }
        return dirs;
    }

    private static List<Path> secrets(final String id) throws IOException {
        final List<Path> found = new ArrayList<>();
        for (final Path dir : directories(id)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(f -> f.getFileName().toString().endsWith(".secret"))
                        .forEach(found::add);
            }
        }
        return found;
    }

    /** Stops a process the test started and what it started: politely, then forcibly after 15 s. */
    static void stop(final Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (process.waitFor(15, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
