package org.troupe.deploy.launch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Copies this JVM's class path to a host without a shared file system: each entry goes once into a per-user cache
 * there, named by its content's hash, so a second deployment (or a second JVM step) reuses what is there.
 */
final class Staging {
    /** A fixed time for the entries of jars made from directories, so the same classes give the same hash. */
    private static final long FIXED_TIME = 0L;

    private Staging() {
    }

    /** The class path to use on {@code host}: the cached copies of {@code classpath}'s entries. */
    static String stage(final Host host, final String classpath) {
        final String cache = Path.of(host.workDir()).getParent().getParent().resolve("cache").toString();
        final Host.Result made = host.run("umask 077 && mkdir -p " + Scripts.quote(cache), Duration.ofSeconds(30));
        if (!made.ok()) {
            throw new LaunchException(host.describe() + ": cannot make the class cache " + cache + ": "
                + made.explain());
        }
        final List<String> staged = new ArrayList<>();
        for (final String entry : classpath.split(java.io.File.pathSeparator)) {
            final Path local = Path.of(entry);
            if (entry.isEmpty() || !Files.exists(local)) {
                continue;
            }
            final byte[] content = Files.isDirectory(local) ? jarOf(local) : read(local);
            final String name = local.getFileName().toString().replaceAll("[^A-Za-z0-9._-]", "_");
            final String remote = cache + "/" + hash(content) + "-" + (name.endsWith(".jar") ? name : name + ".jar");
            if (!host.exists(remote)) {
                host.write(remote, content, 0600);
            }
            staged.add(remote);
        }
        return String.join(":", staged);
    }

    private static byte[] read(final Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new LaunchException("Cannot read class path entry " + file + " to stage it: " + e, e);
        }
    }

    /** A jar of a classes directory, entries sorted and timestamps fixed: equal directories give equal bytes. */
    static byte[] jarOf(final Path dir) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes); Stream<Path> files = Files.walk(dir)) {
            for (final Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                final JarEntry e = new JarEntry(dir.relativize(f).toString().replace('\\', '/'));
                e.setTime(FIXED_TIME);
                jar.putNextEntry(e);
                Files.copy(f, jar);
                jar.closeEntry();
            }
        } catch (IOException e) {
            throw new LaunchException("Cannot pack class directory " + dir + " to stage it: " + e, e);
        }
        return bytes.toByteArray();
    }

    private static String hash(final byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
