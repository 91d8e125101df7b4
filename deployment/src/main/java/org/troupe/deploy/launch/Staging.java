package org.troupe.deploy.launch;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
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

    private Staging() {}

    /** The class path to use on {@code host}: the cached copies of {@code classpath}'s entries. */
    static String stage(final Host host, final String classpath) {
        final String cache =
                Path.of(host.workDir()).getParent().getParent().resolve("cache").toString();
        final Host.Result made = host.run("umask 077 && mkdir -p " + Scripts.quote(cache), Duration.ofSeconds(30));
        if (!made.ok()) {
            throw new LaunchException(
                    host.describe() + ": cannot make the class cache " + cache + ": " + made.explain());
        }
        final List<String> staged = new ArrayList<>();
        final List<byte[]> contents = new ArrayList<>();
        final List<String> hashes = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator)) {
            final Path local = Path.of(entry);
            if (entry.isEmpty() || !Files.exists(local)) {
                continue;
            }
            final byte[] content = Files.isDirectory(local) ? jarOf(local) : read(local);
            final String name = local.getFileName().toString().replaceAll("[^A-Za-z0-9._-]", "_");
            final String hash = hash(content);
            staged.add(cache + "/" + hash.substring(0, 24) + "-" + (name.endsWith(".jar") ? name : name + ".jar"));
            contents.add(content);
            hashes.add(hash);
        }
        // A cached copy is used only if its content is what its name says: a copy cut short by a lost connection,
        // or changed since, is written again.
        final Map<String, String> there = remoteHashes(host, staged);
        for (int i = 0; i < staged.size(); i++) {
            final String found = there.get(staged.get(i));
            if (hashes.get(i).equals(found)) {
                continue;
            }
            if (found != null) { // a file may not be renamed onto another over SFTP
                final Host.Result removed =
                        host.run("rm -f -- " + Scripts.quote(staged.get(i)), Duration.ofSeconds(30));
                if (!removed.ok()) {
                    throw new LaunchException(host.describe() + ": cannot replace the damaged cached copy "
                            + staged.get(i) + ": " + removed.explain());
                }
            }
            host.write(staged.get(i), contents.get(i), 0600);
        }
        return String.join(":", staged);
    }

    /** The SHA-256 of each of {@code paths} that exists on {@code host}, in one command. */
    private static Map<String, String> remoteHashes(final Host host, final List<String> paths) {
        final Map<String, String> hashes = new HashMap<>();
        if (paths.isEmpty()) {
            return hashes;
        }
        final StringBuilder script = new StringBuilder("sha256sum --");
        for (final String p : paths) {
            script.append(' ').append(Scripts.quote(p));
        }
        // Files not there yet make sha256sum complain and fail: what it prints for the others is what counts.
        final Host.Result r = host.run(script.append(" 2>/dev/null; true").toString(), Duration.ofSeconds(120));
        for (final String line : r.out().split("\n")) {
            final int space = line.indexOf("  ");
            if (space == 64) {
                hashes.put(line.substring(66), line.substring(0, 64));
            }
        }
        return hashes;
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
        try (JarOutputStream jar = new JarOutputStream(bytes);
                Stream<Path> files = Files.walk(dir)) {
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
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
