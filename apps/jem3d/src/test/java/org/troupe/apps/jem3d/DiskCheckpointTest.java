package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint store on disk: what is written is read back, and a damaged or partial file is refused. */
class DiskCheckpointTest {
    private static final Mesh MESH = new Mesh(4, 3, 3);

    @TempDir
    Path dir;

    private static DiskCheckpoint checkpoint(final int step) {
        int values = (int) (3 * MESH.tetrahedra());
        double[] e = new double[values];
        double[] h = new double[values];
        for (int i = 0; i < values; i++) {
            e[i] = Math.sin(i + step);
            h[i] = -Math.cos(i * 0.5 + step);
        }
        double[] energies = new double[step];
        Arrays.fill(energies, 1.25);
        return new DiskCheckpoint(
                MESH,
                CavityMode.defaultMode(),
                0.5,
                MESH.timeStep(0.5),
                100,
                10,
                step,
                energies,
                new double[][] {{10, 0.1, 0.2}, {20, 0.3, 0.4}},
                e,
                h);
    }

    @Test
    void whatIsWrittenIsReadBackAndTheOlderFileGoesOnceTheNewerIsInPlace() throws IOException {
        assertNull(DiskCheckpoint.latest(dir), "an empty directory has none");
        Path first = checkpoint(20).write(dir);
        assertEquals(DiskCheckpoint.file(dir, 20), first);
        Files.writeString(dir.resolve(".checkpoint-00000030.jem3d.tmp"), "a write that never ended");
        assertEquals(20, DiskCheckpoint.latest(dir).step(), "a temporary file is no checkpoint");
        DiskCheckpoint written = checkpoint(40);
        written.write(dir);
        DiskCheckpoint read = DiskCheckpoint.latest(dir);
        assertEquals(40, read.step());
        assertEquals(MESH, read.mesh());
        assertEquals(CavityMode.defaultMode(), read.mode());
        assertEquals(written.dt(), read.dt(), 0.0);
        assertEquals(100, read.steps());
        assertEquals(10, read.errorEvery());
        assertArrayEquals(written.e(), read.e(), 0.0);
        assertArrayEquals(written.h(), read.h(), 0.0);
        assertArrayEquals(written.energies(), read.energies(), 0.0);
        assertArrayEquals(written.errors()[1], read.errors()[1], 0.0);
        assertEquals(List.of(DiskCheckpoint.file(dir, 40)), DiskCheckpoint.checkpoints(dir), "the older one went");
    }

    @Test
    void aFileCutShortIsRefused() throws IOException {
        Path file = checkpoint(20).write(dir);
        byte[] all = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(all, all.length / 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskCheckpoint.latest(dir));
        assertTrue(e.getMessage().contains("cut short"), e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void aChangedByteIsRefused() throws IOException {
        Path file = checkpoint(20).write(dir);
        byte[] all = Files.readAllBytes(file);
        all[all.length - 100] ^= 1;
        Files.write(file, all);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskCheckpoint.read(file));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    }

    @Test
    void anotherFileOrBytesAfterTheEndAreRefused() throws IOException {
        Path other = DiskCheckpoint.file(dir, 5);
        Files.writeString(other, "x".repeat(200));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskCheckpoint.read(other));
        assertTrue(e.getMessage().contains("is not a Jem3D checkpoint"), e.getMessage());

        Path file = checkpoint(20).write(dir);
        Files.write(file, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        e = assertThrows(IllegalArgumentException.class, () -> DiskCheckpoint.read(file));
        assertTrue(e.getMessage().contains("holds more than its header describes"), e.getMessage());
    }

    /** A file far longer than its header says is refused from its size, not after reading it all. */
    @Test
    void aHugeFileIsRefusedWithoutReadingIt() throws IOException {
        Path file = checkpoint(20).write(dir);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(64L << 30); // sparse: 64 GiB that take no disk
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskCheckpoint.read(file));
        assertTrue(e.getMessage().contains("holds more than its header describes"), e.getMessage());
    }
}
