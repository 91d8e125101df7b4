package org.troupe.core.transport.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

/**
 * One link's shared file ({@link RingFileLayout}), mapped: made by the connecting runtime in the user's ring
 * directory, opened by the accepting one, removed from the directory once both have it mapped (so a crash leaves
 * nothing behind once a link is up), unmapped at {@link #close()}.
 *
 * <p>Its memory is read and written through Agrona buffers over the mapping's address, which nothing guards after
 * the unmapping: the link closes it only once no thread reads or writes its rings.
 */
final class RingFile implements AutoCloseable {
    /**
     * A file's name: the pid of the runtime that made it, its pid namespace (the pid means something only there), and
     * a random part.
     */
    private static final Pattern NAME = Pattern.compile("([0-9]{1,10})-([0-9]{1,20})-[0-9a-f]{16}");

    /** This process's pid namespace (its inode), or 0 where it cannot be told. */
    static final String PID_NAMESPACE = pidNamespace();

    private static String pidNamespace() {
        try {
            final String link =
                    Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString(); // pid:[4026531836]
            final String inode = link.replaceAll("[^0-9]", "");
            return inode.isEmpty() ? "0" : inode;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "0";
        }
    }

    private final Path path;
    private final int capacity;
    private final Arena arena;
    private final UnsafeBuffer header;
    private final UnsafeBuffer[] rings = new UnsafeBuffer[2];

    private RingFile(final Path path, final int capacity, final Arena arena, final MemorySegment mapped) {
        this.path = path;
        this.capacity = capacity;
        this.arena = arena;
        this.header = new UnsafeBuffer(mapped.address(), RingFileLayout.RING_OFFSET);
        for (int r = 0; r < 2; r++) {
            // Over a view of the mapping, which a reader lends to handlers (RingReader's frames in place).
            rings[r] = new UnsafeBuffer(
                    mapped.asSlice(RingFileLayout.ringOffset(capacity, r), RingFileLayout.ringLength(capacity))
                            .asByteBuffer());
        }
    }

    /** The JVM flag Agrona's buffers need (it reads memory through the JDK's internal Unsafe). */
    static final String ACCESS_FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";

    /**
     * Why this JVM cannot use ring files, or null if it can: Agrona's buffers need {@value #ACCESS_FLAG} (with
     * {@code org.agrona} in place of ALL-UNNAMED on the module path).
     */
    static String unusable() {
        try {
            new UnsafeBuffer(new byte[Long.BYTES]).putLongVolatile(0, 1);
            return null;
        } catch (LinkageError e) {
            return "this JVM lacks " + ACCESS_FLAG + " (Agrona's ring buffers need it; bin/ scripts give it)";
        }
    }

    /**
     * Makes a new file of rings of {@code capacity} bytes in {@code directory} (readable and writable by this user
     * only), mapped; both readers start {@link ReaderState#ASLEEP}.
     *
     * @throws IOException if the directory cannot hold it (the caller falls back, or reports it)
     */
    static RingFile create(final Path directory, final int capacity) throws IOException {
        final String name = ProcessHandle.current().pid() + "-" + PID_NAMESPACE + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        final Path path = directory.resolve(name);
        final long length = RingFileLayout.fileLength(capacity);
        if (Files.getFileStore(directory).getUsableSpace() < 2 * length) {
            throw new IOException(directory + " has less than " + (2 * length >> 20) + " MiB free");
        }
        final Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(
                path,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            // Every page now: a tmpfs that is full says so here (the link stays on TCP), not by a SIGBUS mid-frame.
            final ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            for (long at = 0; at < length; at += zeros.capacity()) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), length - at));
                while (zeros.hasRemaining()) {
                    ch.write(zeros, at + zeros.position());
                }
            }
            final RingFile file =
                    new RingFile(path, capacity, arena, ch.map(FileChannel.MapMode.READ_WRITE, 0, length, arena));
            file.header.putInt(RingFileLayout.CAPACITY_OFFSET, capacity);
            for (int r = 0; r < 2; r++) {
                file.header.putInt(RingFileLayout.readerStateOffset(r), ReaderState.ASLEEP);
            }
            file.header.putLongVolatile(RingFileLayout.MAGIC_OFFSET, RingFileLayout.MAGIC); // last: it is ready
            return file;
        } catch (IOException | RuntimeException e) {
            arena.close();
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /**
     * Opens and maps the file {@code name} of {@code directory} that a peer of this host made for a link, and
     * removes it from the directory (both ends now have it mapped).
     *
     * @throws IOException if there is no such file of this user and layout (the peer is on another host, or in
     *     another mount namespace: the link stays on TCP)
     */
    static RingFile open(final Path directory, final String name, final int expectedCapacity) throws IOException {
        if (!NAME.matcher(name).matches()) {
            throw new IOException("not a ring file's name: " + name);
        }
        final Path path = directory.resolve(name);
        final long length = RingFileLayout.fileLength(expectedCapacity);
        final Arena arena = Arena.ofShared();
        try (FileChannel ch =
                FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            if (ch.size() != length) {
                throw new IOException(path + " has " + ch.size() + " bytes, not " + length);
            }
            final RingFile file = new RingFile(
                    path, expectedCapacity, arena, ch.map(FileChannel.MapMode.READ_WRITE, 0, length, arena));
            if (file.header.getLongVolatile(RingFileLayout.MAGIC_OFFSET) != RingFileLayout.MAGIC
                    || file.header.getInt(RingFileLayout.CAPACITY_OFFSET) != expectedCapacity) {
                throw new IOException(path + " is not a ring file of this version and capacity");
            }
            Files.deleteIfExists(path);
            return file;
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Removes the file from its directory (it stays mapped); done by the opener, and by the maker on failure. */
    void unlink() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // the next start's sweep removes it (its maker's pid is then gone)
        }
    }

    /**
     * Removes the files whose makers are no longer running (a runtime killed between making a file and its peer
     * opening it), so that they do not hold the host's shared memory. Only those made in this pid namespace: another
     * namespace's pids say nothing here.
     */
    static int sweep(final Path directory) {
        int removed = 0;
        try (var files = Files.newDirectoryStream(directory)) {
            for (final Path f : files) {
                final var m = NAME.matcher(f.getFileName().toString());
                if (m.matches()
                        && m.group(2).equals(PID_NAMESPACE)
                        && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                    Files.deleteIfExists(f);
                    removed++;
                }
            }
        } catch (IOException e) {
            // a sweep is a courtesy: a file left now is swept at a later start
        }
        return removed;
    }

    String name() {
        return path.getFileName().toString();
    }

    int capacity() {
        return capacity;
    }

    /** Ring {@code r} (0: connector to acceptor; 1: acceptor to connector). */
    OneToOneRingBuffer ring(final int r) {
        return new OneToOneRingBuffer(rings[r]);
    }

    /** The writer state of ring {@code r}. */
    WriterState writerState(final int r) {
        return new WriterState(header, RingFileLayout.writerStateOffset(r));
    }

    /** The reader state of ring {@code r}. */
    ReaderState readerState(final int r) {
        return new ReaderState(header, RingFileLayout.readerStateOffset(r));
    }

    /** Unmaps the file; no thread may touch its rings from now on. */
    @Override
    public void close() {
        arena.close();
    }
}
