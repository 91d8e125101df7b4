package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What a deployment may leave behind: its processes (their command lines name its id); stopping what tests start. */
final class Leftovers {
    private static final long GRACE_NANOS = 20_000_000_000L;

    private Leftovers() {
    }

    /** The command lines of this machine's processes that name deployment {@code id}. */
    static List<String> processes(final String id) {
        return ProcessHandle.allProcesses()
            .filter(p -> p.pid() != ProcessHandle.current().pid())
            .map(Leftovers::commandLine)
            .filter(c -> c.contains(id))
            .toList();
    }

    /** From /proc: ProcessHandle.Info cuts command lines at 4 KiB, and a class path is longer. */
    static String commandLine(final ProcessHandle p) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
                StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return ""; // it ended meanwhile
        }
    }

    /**
     * Asserts that no process of deployment {@code id} remains, giving a JVM that is exiting (its parent link just
     * closed) a bounded grace period to finish.
     */
    static void assertNoProcessesLeft(final String id) throws InterruptedException {
        final long deadline = System.nanoTime() + GRACE_NANOS;
        while (!processes(id).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), processes(id), "processes of deployment " + id + " still running");
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
