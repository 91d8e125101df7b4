package org.troupe.deploy.launch;

import com.jcraft.jsch.Channel;
import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.HostKey;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.SftpException;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.deploy.descriptor.ProcessSpec;

/**
 * A host reached over SSH (JSch): files over SFTP, commands over exec channels of one session. A session lost while
 * scripts run there is opened again to stop them and remove the deployment's files.
 */
final class SshHost implements Host {
    private static final Logger LOG = LoggerFactory.getLogger(SshHost.class);
    private static final int CONNECT_TIMEOUT_MILLIS = 15_000;
    private final String describe;
    /** Opens a new session to the host, as the first one was opened. */
    private final Supplier<Session> opener;

    private volatile Session session;
    /** Set once connected: it depends on the home directory there. */
    private String workDir;

    private ChannelSftp sftp;

    private SshHost(final String describe, final Supplier<Session> opener) {
        this.describe = describe;
        this.opener = opener;
        this.session = opener.get();
    }

    /**
     * Connects as {@code spec} says, through {@code via}'s session when the host is reached from another SSH host
     * (null: from here), and makes the deployment's private directory there.
     */
    static SshHost connect(
            final ProcessSpec.Ssh spec, final SshHost via, final Path sshDir, final String deploymentId) {
        final String user = spec.user().isEmpty() ? System.getProperty("user.name") : spec.user();
        final String describe = "ssh " + user + "@" + spec.host() + ":" + spec.port();
        final Path key = privateKey(spec, sshDir, describe);
        final JSch jsch = new JSch();
        final Path knownHosts = sshDir.resolve("known_hosts");
        try {
            jsch.addIdentity(key.toString());
            if (spec.knownHosts() != ProcessSpec.KnownHosts.IGNORE) {
                if (spec.knownHosts() == ProcessSpec.KnownHosts.STRICT && !Files.exists(knownHosts)) {
                    throw new LaunchException(describe + ": the known-hosts policy is strict but " + knownHosts
                            + " does not exist; add the host's key with ssh-keyscan -p " + spec.port() + " "
                            + spec.host()
                            + " >> " + knownHosts + ", or set knownHosts=\"accept-new\"");
                }
                if (!Files.exists(knownHosts)) { // JSch records a new key only in a file that exists
                    Files.createDirectories(sshDir);
                    try {
                        Files.createFile(knownHosts);
                    } catch (FileAlreadyExistsException e) {
                        // another launch of this deployment made it between the check and here: as good
                    }
                }
                jsch.setKnownHosts(knownHosts.toString());
            }
        } catch (JSchException | IOException e) {
            throw new LaunchException(
                    describe + ": cannot use the private key " + key + " or " + knownHosts + ": " + e.getMessage(), e);
        }
        // known_hosts names a host as OpenSSH does; through a tunnel, JSch must be told which host it reaches
        final String keyName = spec.port() == 22 ? spec.host() : "[" + spec.host() + "]:" + spec.port();
        final SshHost h = new SshHost(describe, () -> {
            String host = spec.host();
            int port = spec.port();
            if (via != null) {
                try {
                    port = via.liveSession().setPortForwardingL("127.0.0.1", 0, spec.host(), spec.port());
                    host = "127.0.0.1";
                } catch (JSchException e) {
                    throw new LaunchException(
                            describe + ": cannot open a tunnel from " + via.describe + ": " + e.getMessage(), e);
                }
            }
            try {
                final Session session = jsch.getSession(user, host, port);
                session.setHostKeyAlias(keyName);
                session.setConfig("StrictHostKeyChecking", hostKeyChecking(jsch, spec, keyName));
                session.setConfig("PreferredAuthentications", "publickey");
                session.setServerAliveInterval(5_000);
                session.setServerAliveCountMax(6); // a network stall under 30 s does not end the session
                session.connect(CONNECT_TIMEOUT_MILLIS);
                return session;
            } catch (JSchException e) {
                throw new LaunchException(explain(describe, e, key, knownHosts, spec), e);
            }
        });
        try {
            final String dir = h.sftp().getHome() + "/.troupe/deployments/" + deploymentId;
            final Result made = h.run("umask 077 && mkdir -p " + Scripts.quote(dir + "/logs"), Duration.ofSeconds(30));
            if (!made.ok()) {
                throw new LaunchException(describe + ": cannot make " + dir + ": " + made.explain());
            }
            h.workDir = dir;
            return h;
        } catch (SftpException | RuntimeException e) {
            h.release(true);
            throw e instanceof LaunchException l ? l : new LaunchException(describe + ": " + e.getMessage(), e);
        }
    }

    private static Path privateKey(final ProcessSpec.Ssh spec, final Path sshDir, final String describe) {
        if (!spec.privateKey().isEmpty()) {
            final Path key = Path.of(spec.privateKey().replaceFirst("^~", System.getProperty("user.home")));
            if (!Files.isReadable(key)) {
                throw new LaunchException(describe + ": the private key " + key + " does not exist or cannot be"
                        + " read; fix privateKey=\"...\" of ssh '" + spec.id() + "'");
            }
            return key;
        }
        for (final String name : new String[] {"id_ed25519", "id_ecdsa", "id_rsa"}) {
            if (Files.isReadable(sshDir.resolve(name))) {
                return sshDir.resolve(name);
            }
        }
        throw new LaunchException(describe + ": no private key: set privateKey=\"...\" on ssh '" + spec.id()
                + "', or put id_ed25519, id_ecdsa or id_rsa in " + sshDir);
    }

    /** accept-new: strict for a host already known (a changed key is refused), adding the key of a new one. */
    private static String hostKeyChecking(final JSch jsch, final ProcessSpec.Ssh spec, final String keyName) {
        return switch (spec.knownHosts()) {
            case STRICT -> "yes";
            case IGNORE -> "no";
            case ACCEPT_NEW -> {
                final HostKey[] known = jsch.getHostKeyRepository().getHostKey(keyName, null);
                yield known == null || known.length == 0 ? "no" : "yes";
            }
        };
    }

    private static String explain(
            final String describe,
            final JSchException e,
            final Path key,
            final Path knownHosts,
            final ProcessSpec.Ssh spec) {
        final String m = String.valueOf(e.getMessage());
        final Throwable cause = e.getCause();
        if (cause instanceof ConnectException
                || cause instanceof NoRouteToHostException
                || cause instanceof SocketTimeoutException
                || cause instanceof UnknownHostException
                || m.contains("timeout")) {
            return describe + ": host unreachable (" + (cause == null ? m : cause) + "); check the host name, the"
                    + " port and that sshd runs there";
        }
        if (m.startsWith("Auth")) {
            return describe + ": authentication failed with the key " + key + " (" + m + "); check that its public"
                    + " key is in ~/.ssh/authorized_keys of that user there";
        }
        if (m.contains("HostKey has been changed")) {
            return describe + ": the host's key has changed since it was recorded in " + knownHosts + "; if that is"
                    + " expected, remove its line there (ssh-keygen -R), otherwise do not connect";
        }
        if (m.contains("UnknownHostKey") || m.contains("reject HostKey")) {
            return describe + ": the host's key is not in " + knownHosts + " and the known-hosts policy of ssh '"
                    + spec.id() + "' is strict; add it with ssh-keyscan -p " + spec.port() + " " + spec.host() + " >> "
                    + knownHosts + ", or set knownHosts=\"accept-new\"";
        }
        return describe + ": " + m;
    }

    /** The session, opened again if it was lost. */
    private synchronized Session liveSession() {
        if (!session.isConnected()) {
            LOG.info("{}: the SSH session was lost; opening a new one", describe);
            session = opener.get();
            sftp = null;
        }
        return session;
    }

    /**
     * A channel of the live session; if the session turns out to be down (lost before JSch noticed), of a new one.
     */
    private synchronized Channel openChannel(final String type) throws JSchException {
        final Session s = liveSession();
        try {
            return s.openChannel(type);
        } catch (JSchException e) {
            if (s.isConnected() && !String.valueOf(e.getMessage()).contains("session is down")) {
                throw e;
            }
            s.disconnect();
            return liveSession().openChannel(type);
        }
    }

    private synchronized ChannelSftp sftp() {
        if (sftp == null || !sftp.isConnected()) {
            try {
                sftp = (ChannelSftp) openChannel("sftp");
                sftp.connect(CONNECT_TIMEOUT_MILLIS);
            } catch (JSchException e) {
                throw new LaunchException(describe + ": cannot open SFTP: " + e.getMessage(), e);
            }
        }
        return sftp;
    }

    @Override
    public String describe() {
        return describe;
    }

    @Override
    public String workDir() {
        return workDir;
    }

    @Override
    public synchronized void write(final String path, final byte[] content, final int mode) {
        try {
            final ChannelSftp s = sftp();
            // a name of its own: two deployments may stage the same jar at once
            final String partial = path + ".part-"
                    + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
            s.put(new ByteArrayInputStream(new byte[0]), partial);
            s.chmod(mode, partial); // before the content, so a secret is never readable by others
            s.put(new ByteArrayInputStream(content), partial);
            s.rename(partial, path);
        } catch (SftpException e) {
            throw new LaunchException(describe + ": cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Result run(final String script, final Duration timeout) {
        final ChannelExec ch = exec(script);
        try (InputStream in = ch.getInputStream()) {
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            ch.setErrStream(err);
            ch.connect(CONNECT_TIMEOUT_MILLIS);
            final long deadline = System.nanoTime() + timeout.toNanos();
            final byte[] out = readUntilClosed(in, ch, deadline);
            if (!ch.isClosed()) {
                throw new LaunchException("'" + Scripts.firstLine(script) + "' did not end within "
                        + timeout.toSeconds() + " s on " + describe);
            }
            return new Result(
                    ch.getExitStatus(), new String(out, StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } catch (JSchException | IOException e) {
            throw new LaunchException(
                    describe + ": cannot run '" + Scripts.firstLine(script) + "': " + e.getMessage(), e);
        } finally {
            ch.disconnect();
        }
    }

    private static byte[] readUntilClosed(final InputStream in, final ChannelExec ch, final long deadline)
            throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final byte[] buf = new byte[8192];
        while (System.nanoTime() < deadline) {
            while (in.available() > 0) {
                final int n = in.read(buf);
                if (n < 0) {
                    break;
                }
                out.write(buf, 0, n);
            }
            if (ch.isClosed() && in.available() <= 0) {
                return out.toByteArray();
            }
            sleep(20);
        }
        return out.toByteArray();
    }

    private ChannelExec exec(final String script) {
        try {
            final ChannelExec ch = (ChannelExec) openChannel("exec");
            ch.setCommand("sh -c " + Scripts.quote(script));
            ch.setInputStream(null);
            return ch;
        } catch (JSchException e) {
            throw new LaunchException(describe + ": cannot open a channel: " + e.getMessage(), e);
        }
    }

    @Override
    public Background start(final String script, final Consumer<String> lines) {
        // The first line the channel prints is the script's pid: stopping it is a kill over a new channel, because
        // closing an exec channel without a terminal does not signal what it runs.
        final ChannelExec ch = exec("echo $$; exec sh -c " + Scripts.quote(script));
        final BufferedReader out;
        final String pid;
        try {
            out = new BufferedReader(new InputStreamReader(ch.getInputStream(), StandardCharsets.UTF_8));
            ch.connect(CONNECT_TIMEOUT_MILLIS);
            pid = String.valueOf(ScriptLines.next(out)).strip();
        } catch (JSchException | IOException e) {
            ch.disconnect();
            throw new LaunchException(
                    describe + ": cannot start '" + Scripts.firstLine(script) + "': " + e.getMessage(), e);
        }
        final CompletableFuture<Integer> exited = new CompletableFuture<>();
        final Session started = session;
        final Thread watcher = Thread.ofVirtual().start(() -> {
            try {
                ScriptLines.forEach(out, lines);
            } catch (IOException | UncheckedIOException e) {
                // the session ended: the script's fate is unknown here, and the exit status says -1
            }
            while (!ch.isClosed() && started.isConnected()) {
                sleep(20);
            }
            exited.complete(ch.getExitStatus());
        });
        return new Background(exited, () -> {
            try {
                if (pid.matches("[0-9]+")) {
                    // The script stops its JVMs on TERM (killing them after its grace time) and waits for them;
                    // what is still there 3 s after that is killed. Over a new session if the first was lost: the
                    // script runs on without it.
                    final int tenths = Scripts.STOP_GRACE_TENTHS + 30;
                    run(
                            "kill -TERM " + pid + " 2>/dev/null; i=0; while kill -0 " + pid
                                    + " 2>/dev/null && [ $i -lt " + tenths
                                    + " ]; do sleep 0.1; i=$((i + 1)); done; kill -KILL " + pid + " 2>/dev/null; true",
                            Duration.ofSeconds(tenths / 10 + 10));
                    Background.awaitLastLines(exited);
                }
            } catch (LaunchException e) {
                LOG.warn(
                        "{}: could not stop the script (pid {}) there: {}; its JVMs end by themselves once this"
                                + " runtime is gone",
                        describe,
                        pid,
                        e.getMessage());
            } finally {
                ch.disconnect();
                watcher.interrupt();
            }
        });
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void release(final boolean keepLogs) {
        try {
            if (workDir != null) {
                run(
                        keepLogs
                                ? "rm -f " + Scripts.quote(workDir) + "/*" + Scripts.SECRET_SUFFIX
                                : "rm -rf " + Scripts.quote(workDir),
                        Duration.ofSeconds(30));
            }
        } catch (LaunchException e) {
            LOG.warn("{}: could not remove {} there: {}", describe, workDir, e.getMessage());
        } finally {
            synchronized (this) {
                if (sftp != null) {
                    sftp.disconnect();
                }
            }
            session.disconnect();
        }
    }

    @Override
    public String toString() {
        return describe;
    }
}
