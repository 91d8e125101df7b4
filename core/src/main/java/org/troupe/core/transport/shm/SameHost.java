package org.troupe.core.transport.shm;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Who may share memory with whom: runtimes of one kernel boot, one network namespace and one user. The network
 * namespace is part of it because a test (or a container) that gives runtimes namespaces of their own means them
 * to talk as separate hosts do; the user, because the rings live in a directory only the user can enter.
 */
final class SameHost {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private SameHost() {}

    /** This process's host identity: boot id, network namespace and user id; empty if the system has none. */
    static String identity() {
        try {
            final String boot =
                    Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
            final String net =
                    Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
            return boot + "/" + net + "/" + uid();
        } catch (IOException | UnsupportedOperationException e) {
            return ""; // not Linux, or /proc hidden: no shared memory, links stay on TCP
        }
    }

    static int uid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /**
     * This user's ring directory under {@code base} ({@code troupe-<uid>}), made with mode 0700 if missing; one that
     * exists must be this user's and closed to others, or a stranger could read the rings.
     *
     * @throws IOException naming the directory and what is wrong with it
     */
    static Path ringDirectory(final Path base) throws IOException {
        final int uid = uid();
        final Path dir = base.resolve("troupe-" + uid);
        // The setting names the base: say what is wrong with it, not with the subdirectory it could not make.
        if (!Files.isDirectory(base)) {
            throw new IOException(base + (Files.exists(base) ? " is not a directory" : " does not exist"));
        }
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (FileAlreadyExistsException raced) {
                // another runtime of this user made it just now: checked below
            } catch (AccessDeniedException | ReadOnlyFileSystemException e) {
                throw new IOException("this user may not write in " + base, e);
            } catch (FileSystemException e) {
                throw new IOException("cannot make " + dir + (e.getReason() == null ? "" : ": " + e.getReason()), e);
            }
        }
        check(dir);
        return dir;
    }

    /**
     * Fails unless {@code dir} is still this user's ring directory: a directory, not a link, of this user, closed to
     * others. Checked again at each link's set-up, since a directory removed under a running runtime (a tmp cleaner)
     * leaves its name to anyone who may write the base directory.
     *
     * @throws IOException naming the directory and what is wrong with it
     */
    static void check(final Path dir) throws IOException {
        final int uid = uid();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is not a directory");
        }
        final int owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (owner != uid) {
            throw new IOException(dir + " belongs to user " + owner + ", not to this user (" + uid + ")");
        }
        if (!Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).equals(OWNER_ONLY)) {
            throw new IOException(dir + " is open to other users: chmod 700 " + dir);
        }
    }
}
