package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH server on 127.0.0.1 and a free port (or in a network namespace, on its address and port 22), run by
 * the test in the foreground (so it is stopped with the test), with its own host key, and a user key of this user
 * that it accepts. Needs openssh-server (.ci/run installs it); the tests that need it are skipped, with one line
 * saying so, where it is missing.
 */
public final class Sshd implements AutoCloseable {
    private static final Path SSHD = Path.of("/usr/sbin/sshd");
    private final Path dir;
    private final int port;
    private final Process process;

    private Sshd(final Path dir, final int port, final Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    public static void assumeInstalled() {
        assumeTrue(
                Files.isExecutable(SSHD) && Files.isExecutable(Path.of("/usr/bin/ssh-keygen")),
                "OpenSSH server not installed (apt-get install openssh-server): SSH deployment tests skipped");
    }

    /** Starts a server whose files live in {@code dir}; {@code userKey} (made if absent) may log in. */
    static Sshd start(final Path dir, final Path userKey) throws IOException, InterruptedException {
        return start(List.of(), "127.0.0.1", freePort(), dir, userKey);
    }

    /**
     * Starts a server in the network namespace {@code namespace} ({@code ip netns exec}), listening on
     * {@code address} (one of the namespace's) and port 22; as {@link #start(Path, Path)} otherwise.
     */
    public static Sshd startIn(final String namespace, final String address, final Path dir, final Path userKey)
            throws IOException, InterruptedException {
        return start(List.of("ip", "netns", "exec", namespace), address, 22, dir, userKey);
    }

    /** {@code launcher}: what runs sshd (ip netns exec NAME), or nothing. */
    private static Sshd start(
            final List<String> launcher, final String address, final int port, final Path dir, final Path userKey)
            throws IOException, InterruptedException {
        assumeInstalled();
        Files.createDirectories(dir);
        Files.createDirectories(Path.of("/run/sshd"));
        keygen(dir.resolve("host_key"));
        keygen(userKey);
        Files.copy(Path.of(userKey + ".pub"), dir.resolve("authorized_keys"), StandardCopyOption.REPLACE_EXISTING);
        writeConfig(dir, address, port);
        final List<String> command = new ArrayList<>(launcher); // ip netns exec becomes sshd: p is the server
        command.addAll(List.of(
                SSHD.toString(), "-D", "-e", "-f", dir.resolve("sshd_config").toString()));
        final Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("sshd.log").toFile())
                .start();
        final Sshd sshd = new Sshd(dir, port, p);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!sshd.listens()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                sshd.close();
                throw new IllegalStateException("sshd did not start: " + Files.readString(dir.resolve("sshd.log")));
            }
            Thread.sleep(50);
        }
        return sshd;
    }

    /**
     * Writes {@code dir/sshd_config}: a server on {@code address:port} with {@code dir}'s host key and authorized
     * keys (key login only, root allowed, SFTP for staging), and {@code more} lines of the caller's.
     */
    public static void writeConfig(final Path dir, final String address, final int port, final String... more)
            throws IOException {
        final List<String> lines = new ArrayList<>(List.of(
                "Port " + port,
                "ListenAddress " + address,
                "HostKey " + dir.resolve("host_key"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                "StrictModes no",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UsePAM no",
                "PermitRootLogin prohibit-password",
                "Subsystem sftp internal-sftp",
                "PidFile " + dir.resolve("sshd.pid")));
        lines.addAll(List.of(more));
        lines.add("");
        Files.writeString(dir.resolve("sshd_config"), String.join("\n", lines));
    }

    /** Makes an ed25519 key pair without a passphrase at {@code key}, unless there is one. */
    public static void keygen(final Path key) throws IOException, InterruptedException {
        if (Files.exists(key)) {
            return;
        }
        Files.createDirectories(key.getParent());
        final Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString())
                .redirectErrorStream(true)
                .start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(
                    "ssh-keygen failed: " + new String(p.getInputStream().readAllBytes()));
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Whether it says it listens (from here, a namespace's address may be out of reach). */
    private boolean listens() throws IOException {
        return Files.readString(dir.resolve("sshd.log")).contains("Server listening on");
    }

    public int port() {
        return port;
    }

    /** The server's own process (which listens; each session is a child of it). */
    public long pid() {
        return process.pid();
    }

    public Path dir() {
        return dir;
    }

    /**
     * Cuts every SSH session: kills the server's processes that serve connections (what they started runs on,
     * as after a network failure), and keeps the server listening.
     */
    void cutSessions() {
        process.descendants()
                .filter(ph -> ph.info().command().map(c -> c.endsWith("sshd")).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public void close() {
        Leftovers.stop(process);
    }
}
