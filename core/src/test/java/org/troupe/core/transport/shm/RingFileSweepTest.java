package org.troupe.core.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep of ring files whose makers died before a peer opened them. */
class RingFileSweepTest {
    @TempDir
    Path directory;

    /** The pid of a process that has ended. */
    private static long deadPid() throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("true").start();
        p.waitFor(30, TimeUnit.SECONDS);
        return p.pid();
    }

    private Path file(final String name) throws IOException {
        return Files.writeString(directory.resolve(name), "rings");
    }

    private List<String> left() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void onlyTheFilesOfEndedMakersOfThisPidNamespaceAreRemoved() throws Exception {
        final String ns = RingFile.PID_NAMESPACE;
        final long dead = deadPid();
        final String self = ProcessHandle.current().pid() + "-" + ns + "-0123456789abcdef";
        final String otherNamespace = dead + "-" + ns + "1-0123456789abcdef"; // its pid means nothing here
        final String notARingFile = dead + "-notes.txt";
        file(dead + "-" + ns + "-0123456789abcdef");
        file(self);
        file(otherNamespace);
        file(notARingFile);
        assertEquals(1, RingFile.sweep(directory));
        assertEquals(
                List.of(self, otherNamespace, notARingFile).stream().sorted().toList(), left());
    }
}
