package org.troupe.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Who owns a file that holds a secret, which must be the user's own. */
public final class FileOwners {
    private static final Path PROCESS = Path.of("/proc/self");

    private FileOwners() {}

    /**
     * The owner of {@code file}, if that is not the user this JVM runs as; else null. Compared by numeric user id: a
     * user with no name (a container's {@code --user 4242}, with no entry in the password file) owns files too.
     * Where there is no {@code /proc}, by name.
     */
    public static String otherOwner(final Path file) throws IOException {
        final String owner = Files.getOwner(file).getName();
        try {
            final int uid = (Integer) Files.getAttribute(file, "unix:uid");
            return uid == (Integer) Files.getAttribute(PROCESS, "unix:uid") ? null : owner;
        } catch (UnsupportedOperationException | NoSuchFileException e) {
            return owner.equals(System.getProperty("user.name")) ? null : owner;
        }
    }
}
