package org.troupe.deploy.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The directories of local launches that nothing removed: those of JVMs gone for over a day go. */
class LeftoverDirectoriesTest {
    @TempDir
    Path tmp;

    private final Instant now = Instant.now();

    /** A launch directory with its logs, made by the JVM {@code launcher} names, {@code age} ago. */
    private Path directory(final String name, final String launcher, final Duration age) throws IOException {
        final Path dir =
                Files.createDirectories(tmp.resolve(name).resolve("logs")).getParent();
        Files.writeString(dir.resolve("logs/jvm-1.log"), "a log line\n");
        if (launcher != null) {
            final Path file = dir.resolve(LeftoverDirectories.LAUNCHER_FILE);
            Files.writeString(file, launcher);
            Files.setLastModifiedTime(file, FileTime.from(now.minus(age)));
        }
        return dir;
    }

    /** A launcher file of this JVM as it would be, but for a start time it did not have: a pid reused since. */
    private static String reusedPid() {
        return ProcessHandle.current().pid() + " 12345";
    }

    @Test
    void removesOnlyTheDirectoriesOfJvmsGoneForOverADay() throws IOException {
        final Path gone = directory("troupe-d1-1", reusedPid(), Duration.ofDays(2));
        final Path recent = directory("troupe-d2-2", reusedPid(), Duration.ofHours(2));
        final Path fresh = directory("troupe-d3-3", null, Duration.ZERO);
        final Path mine = tmp.resolve("troupe-d4-4");
        Files.createDirectories(mine);
        LeftoverDirectories.mark(mine);
        Files.setLastModifiedTime(
                mine.resolve(LeftoverDirectories.LAUNCHER_FILE), FileTime.from(now.minus(Duration.ofDays(3))));
        final Path unknown = directory("troupe-d5-5", "not a pid", Duration.ofDays(2));
        final Path other = directory("something-else", reusedPid(), Duration.ofDays(2));

        assertEquals(List.of(gone), LeftoverDirectories.sweep(tmp, now));
        assertFalse(Files.exists(gone));
        for (final Path kept : List.of(recent, fresh, mine, unknown, other)) {
            assertTrue(Files.exists(kept), kept + " is kept");
        }
    }

    @Test
    void aLauncherIsRunningWhileItsPidIsAliveWithTheStartTimeItRecorded() throws IOException {
        final Path mine = Files.createDirectories(tmp.resolve("troupe-d6-6"));
        LeftoverDirectories.mark(mine);
        assertTrue(LeftoverDirectories.running(Files.readString(mine.resolve(LeftoverDirectories.LAUNCHER_FILE))));
        assertFalse(LeftoverDirectories.running(reusedPid()), "the pid was reused");
        assertFalse(LeftoverDirectories.running(Long.MAX_VALUE + " -"), "no such process");
    }
}
