package org.troupe.deploy.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The private directories of local launches ({@code troupe-<deployment id>-*} under java.io.tmpdir) that nothing
 * removes: those kept for their logs after a failure, and those of a launcher killed before it could clean up. Each
 * says which JVM made it; the first local launch of a JVM removes those older than a day whose JVM is gone.
 */
final class LeftoverDirectories {
    private static final Logger LOG = LoggerFactory.getLogger(LeftoverDirectories.class);

    /** The file in a directory naming the JVM that made it: its pid and start time (epoch ms, or -). */
    static final String LAUNCHER_FILE = "launcher";

    /** How long a directory of a JVM that is gone is kept, for its logs. */
    static final Duration KEPT = Duration.ofDays(1);

    private static final AtomicBoolean SWEPT = new AtomicBoolean();

    private LeftoverDirectories() {}

    /** Records in {@code workDir} that this JVM made it. */
    static void mark(final Path workDir) throws IOException {
        final ProcessHandle self = ProcessHandle.current();
        Files.writeString(workDir.resolve(LAUNCHER_FILE), self.pid() + " " + startMillis(self), StandardCharsets.UTF_8);
    }

    /** Once per JVM, at its first local launch: removes the leftovers under java.io.tmpdir (a failure is no news). */
    static void sweepOnce() {
        if (!SWEPT.compareAndSet(false, true)) {
            return;
        }
        try {
            final List<Path> removed = sweep(Path.of(System.getProperty("java.io.tmpdir")), Instant.now());
            if (!removed.isEmpty()) {
                LOG.info("Removed {} deployment directories of JVMs gone for over a day: {}", removed.size(), removed);
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not look for leftover deployment directories", e);
        }
    }

    /**
     * Removes the directories {@code troupe-d*-*} of {@code tmp} that hold a {@link #LAUNCHER_FILE} older than
     * {@link #KEPT} naming a JVM that no longer runs; returns them. Others (a running launcher's, a recent one, one
     * without the file) are left.
     */
    static List<Path> sweep(final Path tmp, final Instant now) throws IOException {
        final List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, "troupe-d*-*")) {
            for (final Path dir : dirs) {
                final Path launcher = dir.resolve(LAUNCHER_FILE);
                try {
                    if (!Files.isDirectory(dir)
                            || !Files.isRegularFile(launcher)
                            || Files.getLastModifiedTime(launcher).toInstant().isAfter(now.minus(KEPT))
                            || running(Files.readString(launcher, StandardCharsets.UTF_8))) {
                        continue;
                    }
                    try (Stream<Path> files = Files.walk(dir)) {
                        files.sorted(Comparator.reverseOrder())
                                .forEach(f -> f.toFile().delete());
                    }
                    removed.add(dir);
                } catch (IOException e) { // another user's, or going as we look: not ours to remove
                    LOG.debug("Left {}: {}", dir, e.toString());
                }
            }
        }
        return removed;
    }

    /** Whether the JVM a launcher file names runs: its pid is alive and started when it says (pids are reused). */
    static boolean running(final String launcher) {
        final String[] parts = launcher.trim().split(" ");
        final long pid;
        try {
            pid = Long.parseLong(parts[0]);
        } catch (NumberFormatException e) {
            return true; // not ours to judge: leave it
        }
        final Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return false;
        }
        final String started = startMillis(process.get());
        return parts.length < 2 || parts[1].equals("-") || started.equals("-") || parts[1].equals(started);
    }

    private static String startMillis(final ProcessHandle process) {
        return process.info()
                .startInstant()
                .map(i -> String.valueOf(i.toEpochMilli()))
                .orElse("-");
    }
}
