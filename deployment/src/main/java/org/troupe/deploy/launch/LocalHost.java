package org.troupe.deploy.launch;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** This machine: files in a private temporary directory, commands run by {@code sh}. */
final class LocalHost implements Host {
    private final Path workDir;

    LocalHost(final String deploymentId) {
        try {
            workDir = Files.createTempDirectory(
                    "troupe-" + deploymentId + "-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.createDirectory(workDir.resolve("logs"));
            LeftoverDirectories.mark(workDir);
        } catch (IOException e) {
            throw new LaunchException(
                    "Cannot make a private directory for the deployment under " + System.getProperty("java.io.tmpdir")
                            + ": " + e,
                    e);
        }
        LeftoverDirectories.sweepOnce();
    }

    @Override
    public String describe() {
        return "this host";
    }

    @Override
    public String workDir() {
        return workDir.toString();
    }

    @Override
    public void write(final String path, final byte[] content, final int mode) {
        final Path file = Path.of(path);
        try {
            // no directory is made here: after release, a late write must fail, not recreate the directory
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(permissions(mode)));
            Files.write(file, content);
        } catch (IOException e) {
            throw new LaunchException("Cannot write " + path + " on this host: " + e, e);
        }
    }

    private static Set<PosixFilePermission> permissions(final int mode) {
        final Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        final PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE, high to low
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (bits.length - 1 - i))) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    @Override
    public Result run(final String script, final Duration timeout) {
        Process started = null;
        try {
            final Process p = new ProcessBuilder("sh", "-c", script)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            started = p;
            final CompletableFuture<String> out = drain(p.getInputStream());
            final CompletableFuture<String> err = drain(p.getErrorStream());
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new LaunchException("'" + Scripts.firstLine(script) + "' did not end within "
                        + timeout.toSeconds() + " s on this host");
            }
            return new Result(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new LaunchException("Cannot run sh on this host: " + e, e);
        } catch (InterruptedException e) {
            if (started != null) { // nobody waits for it any more: it must not outlive the call
                started.descendants().forEach(ProcessHandle::destroyForcibly);
                started.destroyForcibly();
            }
            Thread.currentThread().interrupt();
            throw new LaunchException("Interrupted while running '" + Scripts.firstLine(script) + "'", e);
        }
    }

    private static CompletableFuture<String> drain(final InputStream in) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try (in) {
                        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                r -> Thread.ofVirtual().start(r));
    }

    /**
     * A background script runs in a session of its own where setsid is there: the node JVMs belong to the deployment,
     * not to the terminal, so a Ctrl-C (or Ctrl-Z) typed at the application reaches the application alone, and the
     * deployment stops its JVMs itself.
     */
    private static final List<String> DETACHED = Files.isExecutable(Path.of("/usr/bin/setsid"))
            ? List.of("/usr/bin/setsid", "sh", "-c")
            : List.of("sh", "-c");

    @Override
    public Background start(final String script, final Consumer<String> lines) {
        final Process p;
        try {
            final List<String> command = new ArrayList<>(DETACHED);
            command.add(script);
            p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new LaunchException("Cannot run sh on this host: " + e, e);
        }
        final CompletableFuture<Integer> exited = new CompletableFuture<>();
        Thread.ofVirtual().name("troupe-script-" + p.pid()).start(() -> {
            try (var out = p.inputReader(StandardCharsets.UTF_8)) {
                ScriptLines.forEach(out, lines);
            } catch (IOException | UncheckedIOException e) {
                // stopped: the script's end is reported below all the same
            }
            try {
                exited.complete(p.waitFor());
            } catch (InterruptedException e) {
                exited.complete(-1);
            }
        });
        return new Background(exited, () -> {
            // TERM to the script alone: its trap stops its JVMs and waits for them, so once it has ended they have
            // too. What is left after 10 s is killed. Through its handle: Process.destroy() would also close its
            // output here, and the lines its JVMs print as they stop would be lost (and the script killed by a
            // broken pipe before it has stopped them).
            final List<ProcessHandle> tree = p.descendants().toList();
            p.toHandle().destroy();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            tree.forEach(ProcessHandle::destroyForcibly);
            p.toHandle().destroyForcibly();
            Background.awaitLastLines(exited);
        });
    }

    @Override
    public void release(final boolean keepLogs) {
        try (Stream<Path> files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder())
                    .filter(f -> !keepLogs || f.getFileName().toString().endsWith(Scripts.SECRET_SUFFIX))
                    .forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot clean " + workDir, e);
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}
