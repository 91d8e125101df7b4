package org.troupe.apps.jem3d;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * A run's checkpoint on disk ({@code --checkpoint DIR}): what the run is (mesh, mode, CFL, time step, steps planned,
 * error sampling), the step it was taken after, the energies and errors so far, and E and H of the whole mesh. A
 * run resumes from it on any nodes ({@code --resume DIR}), to the fields an uninterrupted run ends with.
 *
 * <p>The file, {@code checkpoint-NNNNNNNN.jem3d} (the step), is written to a temporary file, forced to the disk,
 * checked by a CRC-32C of everything before it, and renamed into place; the previous one is deleted only then. A
 * file that is cut short, changed or of another format is refused with a message that says so.
 *
 * <pre>
 * "JEM3DCKP" | version 1 | m1 m2 m3 | kx ky kz | ax ay az | cfl dt | steps errorEvery step
 * | energies: count, doubles | errors: rows, (step, E error, H error) each | E: count, doubles | H: count, doubles
 * | CRC-32C of all the above (8 bytes)            (big-endian; ints 4 bytes, doubles 8)
 * </pre>
 */
public record DiskCheckpoint(
        Mesh mesh,
        CavityMode mode,
        double cfl,
        double dt,
        int steps,
        int errorEvery,
        int step,
        double[] energies,
        double[][] errors,
        double[] e,
        double[] h) {
    private static final byte[] MAGIC = "JEM3DCKP".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    private static final Pattern NAME = Pattern.compile("checkpoint-([0-9]{8})\\.jem3d");
    private static final int BUFFER = 1 << 20;

    /** The file of the checkpoint after {@code step} in {@code dir}. */
    public static Path file(final Path dir, final int step) {
        return dir.resolve(String.format(Locale.ROOT, "checkpoint-%08d.jem3d", step));
    }

    /**
     * Writes this checkpoint into {@code dir} (temporary file, forced, renamed), then deletes the older ones there.
     *
     * @return the file written
     */
    public Path write(final Path dir) throws IOException {
        Path target = file(dir, step);
        Path tmp = dir.resolve("." + target.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(
                tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            Writer w = new Writer(out);
            w.buffer.put(MAGIC);
            w.ints(VERSION, mesh.m1(), mesh.m2(), mesh.m3(), mode.kx(), mode.ky(), mode.kz());
            w.doubles(mode.ax(), mode.ay(), mode.az(), cfl, dt);
            w.ints(steps, errorEvery, step);
            w.array(energies);
            w.ints(errors.length);
            for (double[] row : errors) {
                w.doubles(row[0], row[1], row[2]);
            }
            w.array(e);
            w.array(h);
            w.finish();
            out.force(true);
        } catch (IOException | RuntimeException ex) {
            Files.deleteIfExists(tmp);
            throw ex;
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException ex) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true); // the rename itself on the disk
        } catch (IOException ex) {
            // not every file system lets a directory be forced; the file itself is
        }
        for (Path older : checkpoints(dir)) {
            if (!older.equals(target)) {
                Files.deleteIfExists(older);
            }
        }
        return target;
    }

    /** The checkpoint files in {@code dir}, newest (largest step) first. */
    static List<Path> checkpoints(final Path dir) throws IOException {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                if (NAME.matcher(f.getFileName().toString()).matches()) {
                    found.add(f);
                }
            }
        }
        found.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
        return found;
    }

    /**
     * The newest checkpoint in {@code dir}, or null if it has none.
     *
     * @throws IllegalArgumentException when the directory cannot be read, or its newest checkpoint is damaged,
     *     cut short or not one: saying which file, what is wrong, and what to do
     */
    public static DiskCheckpoint latest(final Path dir) {
        List<Path> files;
        try {
            files = checkpoints(dir);
        } catch (IOException ex) {
            throw new IllegalArgumentException("cannot read the checkpoint directory " + dir + ": " + ex.getMessage());
        }
        return files.isEmpty() ? null : read(files.getFirst());
    }

    /**
     * Reads and checks {@code file}.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static DiskCheckpoint read(final Path file) {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            Reader r = new Reader(in, file);
            byte[] magic = new byte[MAGIC.length];
            r.bytes(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw r.bad("is not a Jem3D checkpoint");
            }
            int version = r.integer();
            if (version != VERSION) {
                throw r.bad("is of format version " + version + ", this Jem3D reads version " + VERSION);
            }
            Mesh mesh;
            CavityMode mode;
            double cfl;
            double dt;
            int steps;
            int errorEvery;
            int step;
            try {
                mesh = new Mesh(r.integer(), r.integer(), r.integer());
                int kx = r.integer();
                int ky = r.integer();
                int kz = r.integer();
                mode = new CavityMode(kx, ky, kz, r.real(), r.real(), r.real());
                cfl = r.real();
                dt = r.real();
                steps = r.integer();
                errorEvery = r.integer();
                step = r.integer();
            } catch (IllegalArgumentException ex) {
                throw r.bad("describes no run Jem3D can make (" + ex.getMessage() + ")");
            }
            long values = 3 * mesh.tetrahedra();
            if (!(cfl > 0 && cfl <= 1)
                    || !(dt > 0)
                    || step < 1
                    || step >= steps
                    || errorEvery < 0
                    || values > MAX_VALUES) {
                throw r.bad("has a header no run writes (CFL " + cfl + ", dt " + dt + ", step " + step + " of " + steps
                        + ")");
            }
            // the header, the energies, no error rows, E, H and the checksum: the least a complete file holds
            long least = HEADER_BYTES + 4 + 8L * step + 4 + 2 * (4 + 8 * values) + 8;
            if (in.size() < least) {
                throw r.bad("is cut short (" + in.size() + " bytes, at least " + least + " expected): it was not "
                        + "written to the end");
            }
            double[] energies = r.array(step, "energies");
            int rows = r.integer();
            if (rows < 0 || rows > step) {
                throw r.bad("lists " + rows + " error samples for " + step + " steps");
            }
            long size = least + 24L * rows;
            if (in.size() != size) {
                throw r.bad(
                        in.size() < size
                                ? "is cut short (" + in.size() + " bytes of " + size
                                        + "): it was not written to the end"
                                : "holds more than its header describes (" + in.size() + " bytes, not " + size + ")");
            }
            r.checkSum();
            double[][] errors = new double[rows][];
            for (int i = 0; i < rows; i++) {
                errors[i] = new double[] {r.real(), r.real(), r.real()};
            }
            double[] e = r.array((int) values, "E values");
            double[] h = r.array((int) values, "H values");
            return new DiskCheckpoint(mesh, mode, cfl, dt, steps, errorEvery, step, energies, errors, e, h);
        } catch (IOException ex) {
            throw new IllegalArgumentException("cannot read the checkpoint " + file + ": " + ex.getMessage());
        }
    }

    /** The bytes before the energies: magic, version, mesh, mode, CFL, dt, steps, error sampling and step. */
    private static final int HEADER_BYTES = 8 + 4 * 7 + 8 * 5 + 4 * 3;

    /** The most field values a checkpoint may hold: what one array can. */
    private static final long MAX_VALUES = Integer.MAX_VALUE - 8;

    /** Writes through a buffer, keeping the checksum of what it wrote. */
    private static final class Writer {
        final FileChannel out;
        final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        final CRC32C crc = new CRC32C();

        Writer(final FileChannel out) {
            this.out = out;
        }

        void room(final int bytes) throws IOException {
            if (buffer.remaining() < bytes) {
                flush();
            }
        }

        void flush() throws IOException {
            buffer.flip();
            crc.update(buffer.duplicate());
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            buffer.clear();
        }

        void ints(final int... values) throws IOException {
            for (int v : values) {
                room(4);
                buffer.putInt(v);
            }
        }

        void doubles(final double... values) throws IOException {
            for (double v : values) {
                room(8);
                buffer.putDouble(v);
            }
        }

        void array(final double[] values) throws IOException {
            ints(values.length);
            doubles(values);
        }

        void finish() throws IOException {
            flush();
            buffer.putLong(crc.getValue());
            buffer.flip();
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        }
    }

    /** Reads through a buffer; checks the checksum of the whole file first. */
    private static final class Reader {
        final FileChannel in;
        final Path file;
        final ByteBuffer buffer = ByteBuffer.allocate(BUFFER).limit(0);

        Reader(final FileChannel in, final Path file) {
            this.in = in;
            this.file = file;
        }

        IllegalArgumentException bad(final String what) {
            return new IllegalArgumentException("the checkpoint " + file + " " + what + ": resume from a complete "
                    + "checkpoint of this version, or start the run again without --resume");
        }

        void need(final int bytes) throws IOException {
            if (buffer.remaining() >= bytes) {
                return;
            }
            buffer.compact();
            while (buffer.position() < bytes) {
                if (in.read(buffer) < 0) {
                    throw bad("is cut short (" + in.size() + " bytes): it was not written to the end");
                }
            }
            buffer.flip();
        }

        void bytes(final byte[] out) throws IOException {
            need(out.length);
            buffer.get(out);
        }

        int integer() throws IOException {
            need(4);
            return buffer.getInt();
        }

        double real() throws IOException {
            need(8);
            return buffer.getDouble();
        }

        double[] array(final int expected, final String what) throws IOException {
            int n = integer();
            if (n != expected) {
                throw bad("holds " + n + " " + what + " where its header says " + expected);
            }
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                out[i] = real();
            }
            return out;
        }

        /** Compares the CRC-32C of all but the last 8 bytes with those 8, without moving the read position. */
        void checkSum() throws IOException {
            long end = in.size() - 8;
            CRC32C crc = new CRC32C();
            ByteBuffer chunk = ByteBuffer.allocate(BUFFER);
            for (long at = 0; at < end; ) {
                chunk.clear().limit((int) Math.min(BUFFER, end - at));
                int n = in.read(chunk, at);
                if (n < 0) {
                    throw bad("is cut short while it is read");
                }
                chunk.flip();
                crc.update(chunk);
                at += n;
            }
            ByteBuffer trailer = ByteBuffer.allocate(8);
            while (trailer.hasRemaining() && in.read(trailer, end + trailer.position()) >= 0) {
                // reads the 8 bytes
            }
            if (trailer.flip().getLong() != crc.getValue()) {
                throw bad("is damaged: its checksum does not match its content");
            }
        }
    }

    /** Whether this checkpoint is of the run {@code options} on {@code mesh} describe (the same steps to the end). */
    boolean matches(final Mesh m, final CavityMode md, final double c, final double t, final int n) {
        return mesh.equals(m) && mode.equals(md) && cfl == c && dt == t && steps == n;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT, "checkpoint of step %d of %d, mesh %s, mode %s, CFL %s", step, steps, mesh, mode, cfl);
    }
}
