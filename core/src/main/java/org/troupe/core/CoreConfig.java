package org.troupe.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.apache.commons.configuration2.ex.ConversionException;
import org.troupe.config.FileOwners;
import org.troupe.config.TroupeSettings;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.internal.RuntimeSettings;
import org.troupe.core.transport.Addresses;
import org.troupe.serialization.SerializationConfig;

/**
 * How this JVM's runtime behaves. Immutable; read it from the Troupe settings ({@link #fromSettings}) or build it.
 * Keys are documented in {@code docs/CONFIGURATION.md}.
 */
public final class CoreConfig {
    public static final String SPIN_PROP_NAME = "troupe.core.spinMicros";
    public static final int SPIN_DEFAULT_MICROS = 1000;
    public static final String WAIT_BACKOFF_PROP_NAME = "troupe.core.waitBackoff";
    public static final String SYNCHRONOUS_CALLS_PROP_NAME = "troupe.core.synchronousCalls";
    public static final String TRANSPORT_PROP_NAME = "troupe.core.transport";
    public static final String BIND_ADDRESS_PROP_NAME = "troupe.core.bindAddress";
    /** Loopback: a runtime started alone listens on the network only when asked to (docs/SECURITY.md). */
    public static final String BIND_ADDRESS_DEFAULT = "127.0.0.1";
    /** The host peers are told to dial; empty (the default): chosen for each peer (see {@link #advertiseAddress}). */
    public static final String ADVERTISE_ADDRESS_PROP_NAME = "troupe.core.advertiseAddress";

    public static final String PORT_PROP_NAME = "troupe.core.port";

    /**
     * The flags every JVM that runs Troupe needs, which its launchers give the JVMs they start: Netty's and the
     * serializers' memory access without the JDK's warnings, and the access Agrona's rings need (without it, links
     * to runtimes of this host stay on TCP).
     */
    public static final List<String> JVM_FLAGS = List.of(
            "--sun-misc-unsafe-memory-access=allow",
            "--enable-native-access=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");

    public static final String SECRET_PROP_NAME = "troupe.core.secret";
    public static final String SECRET_FILE_PROP_NAME = "troupe.core.secretFile";
    /** 32 hexadecimal digits carry 128 bits: the least a secret may have, whatever the peers can try. */
    public static final int MIN_SECRET_CHARS = 32;

    public static final String HEARTBEAT_PROP_NAME = "troupe.core.heartbeatMillis";
    public static final int HEARTBEAT_DEFAULT_MILLIS = 1_000;
    public static final String PEER_TIMEOUT_PROP_NAME = "troupe.core.peerTimeoutMillis";
    public static final int PEER_TIMEOUT_DEFAULT_MILLIS = 4_000;
    public static final String CONNECT_TIMEOUT_PROP_NAME = "troupe.core.connectTimeoutMillis";
    public static final int CONNECT_TIMEOUT_DEFAULT_MILLIS = 10_000;
    /** How long a call to another JVM may go unanswered before its future fails; 0: as long as the peer lives. */
    public static final String CALL_TIMEOUT_PROP_NAME = "troupe.core.callTimeoutMillis";
    /** The most bytes this JVM's links may hold at once for frames still arriving; 0: half the heap. */
    public static final String MAX_RECEIVING_BYTES_PROP_NAME = "troupe.core.maxReceivingBytes";
    /** Whether every frame after the handshake carries a tag; every runtime of a deployment must agree. */
    public static final String AUTHENTICATE_FRAMES_PROP_NAME = "troupe.core.authenticateFrames";
    /** The transport by default: shared memory to runtimes of this host, TCP to the others. */
    public static final String TRANSPORT_DEFAULT = "auto";
    /** Where shared-memory links make their ring files (a tmpfs). */
    public static final String SHM_DIRECTORY_PROP_NAME = "troupe.core.shmDirectory";

    public static final String SHM_DIRECTORY_DEFAULT = "/dev/shm";
    /** The bytes of each direction's ring of a shared-memory link. */
    public static final String SHM_RING_BYTES_PROP_NAME = "troupe.core.shmRingBytes";

    public static final int SHM_RING_BYTES_DEFAULT = 4 << 20;
    /** Whether the runtime counts calls, requests and link traffic and keeps JVM meters. */
    public static final String METRICS_PROP_NAME = "troupe.metrics.enabled";
    /** How often a node JVM sends its meters to its launcher. */
    public static final String METRICS_REPORT_PROP_NAME = "troupe.metrics.reportMillis";

    public static final int METRICS_REPORT_DEFAULT_MILLIS = 2_000;
    /** The largest metrics report a runtime sends or keeps. */
    public static final String METRICS_MAX_REPORT_BYTES_PROP_NAME = "troupe.metrics.maxReportBytes";

    public static final int METRICS_MAX_REPORT_BYTES_DEFAULT = 256 << 10;

    /** What a call to a method whose result cannot be a future does. */
    public enum SynchronousCalls {
        /** Runs it and waits for the result (the default). */
        ALLOW,
        /** Runs it and waits, logging a warning the first time each such method is called. */
        WARN,
        /** Refuses it with a {@link TroupeException}: every call must be asynchronous. */
        REFUSE
    }

    private final SerializationConfig serialization;
    private final Duration spin;
    private final boolean waitBackoff;
    private final SynchronousCalls synchronousCalls;
    private final String transport;
    private final String bindAddress;
    private final boolean bindAddressChosen;
    private final String advertiseAddress;
    private final int port;
    private final String secret;
    private final Duration heartbeat;
    private final Duration peerTimeout;
    private final Duration connectTimeout;
    private final Duration callTimeout;
    private final long maxReceivingBytes;
    private final boolean authenticateFrames;
    private final String shmDirectory;
    private final int shmRingBytes;
    private final boolean metrics;
    private final Duration metricsReport;
    private final int metricsMaxReportBytes;

    private CoreConfig(final Builder b) {
        this.serialization = b.serialization;
        this.spin = b.spin;
        this.waitBackoff = b.waitBackoff;
        this.synchronousCalls = b.synchronousCalls;
        this.transport = b.transport;
        this.bindAddress = b.bindAddress;
        this.bindAddressChosen = b.bindAddressChosen;
        this.advertiseAddress = b.advertiseAddress;
        this.port = b.port;
        this.secret = b.secret;
        this.heartbeat = b.heartbeat;
        this.peerTimeout = b.peerTimeout;
        this.connectTimeout = b.connectTimeout;
        this.callTimeout = b.callTimeout;
        if (callTimeout.isNegative()) {
            throw new IllegalArgumentException(
                    CALL_TIMEOUT_PROP_NAME + " must be 0 (no deadline) or more, not " + callTimeout.toMillis());
        }
        this.maxReceivingBytes = b.maxReceivingBytes;
        if (maxReceivingBytes < 0) {
            throw new IllegalArgumentException(MAX_RECEIVING_BYTES_PROP_NAME
                    + " must be 0 (half the heap) or a number of bytes, not " + maxReceivingBytes);
        }
        this.authenticateFrames = b.authenticateFrames;
        this.shmDirectory = b.shmDirectory;
        this.shmRingBytes = b.shmRingBytes;
        this.metrics = b.metrics;
        this.metricsReport = b.metricsReport;
        this.metricsMaxReportBytes = b.metricsMaxReportBytes;
        if (metricsReport.toMillis() < 100) {
            throw new IllegalArgumentException(
                    METRICS_REPORT_PROP_NAME + " must be at least 100 (milliseconds), not " + metricsReport.toMillis());
        }
        if (metricsMaxReportBytes < 4096) {
            throw new IllegalArgumentException(
                    METRICS_MAX_REPORT_BYTES_PROP_NAME + " must be at least 4096, not " + metricsMaxReportBytes);
        }
        if (peerTimeout.compareTo(heartbeat.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException(PEER_TIMEOUT_PROP_NAME + " (" + peerTimeout.toMillis() + " ms) must be"
                    + " at least twice " + HEARTBEAT_PROP_NAME + " (" + heartbeat.toMillis() + " ms)");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Reads {@code troupe.core.*} and {@code troupe.serialization.*}; absent keys keep their defaults. */
    public static CoreConfig fromSettings(final ImmutableConfiguration settings) {
        return builder(settings).build();
    }

    /** A builder holding the values of {@link #fromSettings}, to change some of them before {@code build()}. */
    public static Builder builder(final ImmutableConfiguration settings) {
        final Builder b = builder().serialization(SerializationConfig.fromSettings(settings));
        b.spin(Duration.ofNanos(1_000L * whole(settings, SPIN_PROP_NAME, SPIN_DEFAULT_MICROS)));
        b.waitBackoff(trueOrFalse(settings, WAIT_BACKOFF_PROP_NAME, true));
        final String sync = settings.getString(SYNCHRONOUS_CALLS_PROP_NAME, "allow");
        try {
            b.synchronousCalls(SynchronousCalls.valueOf(sync.strip().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    SYNCHRONOUS_CALLS_PROP_NAME + " must be allow, warn or refuse, not '" + sync + "'", e);
        }
        b.transport(settings.getString(TRANSPORT_PROP_NAME, TRANSPORT_DEFAULT));
        if (settings.containsKey(BIND_ADDRESS_PROP_NAME)) {
            b.bindAddress(settings.getString(BIND_ADDRESS_PROP_NAME));
        }
        b.advertiseAddress(settings.getString(ADVERTISE_ADDRESS_PROP_NAME, ""));
        b.port(whole(settings, PORT_PROP_NAME, 0));
        final String secret = settings.getString(SECRET_PROP_NAME, null);
        final String secretFile = settings.getString(SECRET_FILE_PROP_NAME, null);
        // the file wins: it is what a deployment hands its JVMs, whatever a profile may export
        if (secretFile != null) {
            b.secretFile(Path.of(secretFile));
        } else if (secret != null) {
            b.secret(secret);
        }
        b.heartbeat(Duration.ofMillis(whole(settings, HEARTBEAT_PROP_NAME, HEARTBEAT_DEFAULT_MILLIS)));
        b.peerTimeout(Duration.ofMillis(whole(settings, PEER_TIMEOUT_PROP_NAME, PEER_TIMEOUT_DEFAULT_MILLIS)));
        b.connectTimeout(Duration.ofMillis(whole(settings, CONNECT_TIMEOUT_PROP_NAME, CONNECT_TIMEOUT_DEFAULT_MILLIS)));
        b.callTimeout(Duration.ofMillis(wholeLong(settings, CALL_TIMEOUT_PROP_NAME, 0L)));
        b.maxReceivingBytes(wholeLong(settings, MAX_RECEIVING_BYTES_PROP_NAME, 0L));
        final String authenticate =
                settings.getString(AUTHENTICATE_FRAMES_PROP_NAME, "true").strip();
        if (!authenticate.equals("true") && !authenticate.equals("false")) {
            throw new IllegalArgumentException(
                    AUTHENTICATE_FRAMES_PROP_NAME + " must be true or false, not '" + authenticate + "'");
        }
        b.authenticateFrames(Boolean.parseBoolean(authenticate));
        b.shmDirectory(settings.getString(SHM_DIRECTORY_PROP_NAME, SHM_DIRECTORY_DEFAULT));
        b.shmRingBytes(whole(settings, SHM_RING_BYTES_PROP_NAME, SHM_RING_BYTES_DEFAULT));
        b.metrics(trueOrFalse(settings, METRICS_PROP_NAME, true));
        b.metricsReport(Duration.ofMillis(whole(settings, METRICS_REPORT_PROP_NAME, METRICS_REPORT_DEFAULT_MILLIS)));
        b.metricsMaxReportBytes(whole(settings, METRICS_MAX_REPORT_BYTES_PROP_NAME, METRICS_MAX_REPORT_BYTES_DEFAULT));
        return b;
    }

    // A value the settings cannot convert is a bad setting like any other (launchers say it in a line, exit 2),
    // not the configuration library's exception with its stack trace.
    private static int whole(final ImmutableConfiguration settings, final String key, final int otherwise) {
        return converted(settings, key, "a whole number", () -> settings.getInt(key, otherwise));
    }

    private static long wholeLong(final ImmutableConfiguration settings, final String key, final long otherwise) {
        return converted(settings, key, "a whole number", () -> settings.getLong(key, otherwise));
    }

    private static boolean trueOrFalse(
            final ImmutableConfiguration settings, final String key, final boolean otherwise) {
        return converted(settings, key, "true or false", () -> settings.getBoolean(key, otherwise));
    }

    private static <T> T converted(
            final ImmutableConfiguration settings, final String key, final String what, final Supplier<T> value) {
        try {
            return value.get();
        } catch (ConversionException e) {
            throw new IllegalArgumentException(
                    key + " must be " + what + ", not '" + settings.getString(key) + "' (see docs/CONFIGURATION.md)",
                    e);
        }
    }

    /** The settings of this JVM ({@link TroupeSettings#load()}). */
    public static CoreConfig fromSettings() {
        return fromSettings(TroupeSettings.load());
    }

    public SerializationConfig serialization() {
        return serialization;
    }

    /** How long a thread waiting for a reply or a request spins before it parks. */
    public Duration spin() {
        return spin;
    }

    /** Whether waiters park at once, neither spinning nor yielding, while the host has more runnable threads than cores. */
    public boolean waitBackoff() {
        return waitBackoff;
    }

    public SynchronousCalls synchronousCalls() {
        return synchronousCalls;
    }

    /**
     * The transport's name: {@code auto} (shared memory to runtimes of this host, TCP to others), {@code tcp},
     * {@code shm} (this host only), {@code local} (none: this JVM only), or another transport's.
     */
    public String transport() {
        return transport;
    }

    /** The interface this runtime listens on (an address or a host name; a wildcard for all); loopback by default. */
    public String bindAddress() {
        return bindAddress;
    }

    /**
     * Whether the bind address was chosen, by a setting or {@link Builder#bindAddress}, rather than left at its
     * default: where nobody chose it, a deployment whose node JVMs run on other hosts makes the runtime listen where
     * they reach it ({@link TroupeRuntime#listen(String)}), instead of failing.
     */
    public boolean bindAddressChosen() {
        return bindAddressChosen;
    }

    /**
     * The host (an address or a name) this runtime tells its peers to dial, whatever its bind address; empty (the
     * default) to announce its bind address, or, bound to a wildcard, to each peer the local address of their
     * connection.
     */
    public String advertiseAddress() {
        return advertiseAddress;
    }

    /** The port to listen on; 0 picks a free one. */
    public int port() {
        return port;
    }

    /**
     * The deployment secret every link proves knowledge of. Without one a runtime makes up its own, so only the
     * JVMs it launches and tells can join it.
     */
    public String secret() {
        return secret;
    }

    public Duration heartbeat() {
        return heartbeat;
    }

    /** How long a silent peer is waited for before everything awaiting it fails. */
    public Duration peerTimeout() {
        return peerTimeout;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** How long a call to another JVM waits for its reply before its future fails; zero for no deadline. */
    public Duration callTimeout() {
        return callTimeout;
    }

    /** The most bytes this JVM's links may hold for frames still arriving; 0 for half the heap. */
    public long maxReceivingBytes() {
        return maxReceivingBytes;
    }

    /** Whether links tag every frame, so that a frame altered, injected, replayed or reordered closes the link. */
    public boolean authenticateFrames() {
        return authenticateFrames;
    }

    /** Where shared-memory links make their ring files. */
    public String shmDirectory() {
        return shmDirectory;
    }

    /** The bytes of each direction's ring of a shared-memory link. */
    public int shmRingBytes() {
        return shmRingBytes;
    }

    /** Whether the runtime counts calls, requests and link traffic ({@code troupe.metrics.enabled}). */
    public boolean metrics() {
        return metrics;
    }

    /** How often a node JVM sends its meters to its launcher. */
    public Duration metricsReport() {
        return metricsReport;
    }

    /** The largest metrics report a runtime sends or keeps. */
    public int metricsMaxReportBytes() {
        return metricsMaxReportBytes;
    }

    /** What the runtime's machinery reads of these settings: it does not depend on this class. */
    RuntimeSettings runtimeSettings() {
        return new RuntimeSettings(
                spin.toNanos(),
                RuntimeSettings.SynchronousCalls.valueOf(synchronousCalls.name()),
                callTimeout,
                connectTimeout,
                CALL_TIMEOUT_PROP_NAME,
                BIND_ADDRESS_PROP_NAME,
                metrics);
    }

    public static final class Builder {
        private SerializationConfig serialization = SerializationConfig.defaults();
        private Duration spin = Duration.ofNanos(1_000L * SPIN_DEFAULT_MICROS);
        private boolean waitBackoff = true;
        private SynchronousCalls synchronousCalls = SynchronousCalls.ALLOW;
        private String transport = TRANSPORT_DEFAULT;
        private String bindAddress = BIND_ADDRESS_DEFAULT;
        private boolean bindAddressChosen;
        private String advertiseAddress = "";
        private int port;
        private String secret = HexFormat.of().formatHex(randomBytes());
        private Duration heartbeat = Duration.ofMillis(HEARTBEAT_DEFAULT_MILLIS);
        private Duration peerTimeout = Duration.ofMillis(PEER_TIMEOUT_DEFAULT_MILLIS);
        private Duration connectTimeout = Duration.ofMillis(CONNECT_TIMEOUT_DEFAULT_MILLIS);
        private Duration callTimeout = Duration.ZERO;
        private long maxReceivingBytes;
        private boolean authenticateFrames = true;
        private String shmDirectory = SHM_DIRECTORY_DEFAULT;
        private int shmRingBytes = SHM_RING_BYTES_DEFAULT;
        private boolean metrics = true;
        private Duration metricsReport = Duration.ofMillis(METRICS_REPORT_DEFAULT_MILLIS);
        private int metricsMaxReportBytes = METRICS_MAX_REPORT_BYTES_DEFAULT;

        /** Whether the runtime counts calls, requests and link traffic and keeps JVM meters (on by default). */
        public Builder metrics(final boolean on) {
            this.metrics = on;
            return this;
        }

        /** How often a node JVM sends its meters to its launcher (at least 100 ms). */
        public Builder metricsReport(final Duration period) {
            this.metricsReport = period;
            return this;
        }

        /** The largest metrics report a runtime sends or keeps (at least 4096 bytes). */
        public Builder metricsMaxReportBytes(final int bytes) {
            this.metricsMaxReportBytes = bytes;
            return this;
        }

        /** Where shared-memory links make their ring files. */
        public Builder shmDirectory(final String directory) {
            this.shmDirectory = directory;
            return this;
        }

        /** The bytes of each direction's ring of a shared-memory link (checked when a transport uses it). */
        public Builder shmRingBytes(final int bytes) {
            this.shmRingBytes = bytes;
            return this;
        }

        private Builder() {}

        /** Off only on a network where nobody but the deployment can send to its ports (see docs/SECURITY.md). */
        public Builder authenticateFrames(final boolean on) {
            this.authenticateFrames = on;
            return this;
        }

        private static byte[] randomBytes() {
            final byte[] b = new byte[24];
            new SecureRandom().nextBytes(b);
            return b;
        }

        /** Selects a transport by name ({@code auto}, {@code tcp}, {@code shm}, {@code local} for none); checked at start. */
        public Builder transport(final String name) {
            final String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
            if (!n.matches("[a-z][a-z0-9-]*")) {
                throw new IllegalArgumentException(TRANSPORT_PROP_NAME + " must name a transport (auto, tcp, shm, or"
                        + " local for none), not '" + name + "'");
            }
            this.transport = n;
            return this;
        }

        /** The interface to listen on: an address or a host name, {@code 0.0.0.0} or {@code ::} for all. */
        public Builder bindAddress(final String address) {
            this.bindAddress = host(
                    BIND_ADDRESS_PROP_NAME,
                    address,
                    "127.0.0.1, an address of this host, or 0.0.0.0" + " for all its interfaces");
            this.bindAddressChosen = true;
            return this;
        }

        /**
         * The host peers are told to dial (an address or a name that reaches this host, as with NAT or a name
         * peers resolve to another address); empty: chosen (see {@link CoreConfig#advertiseAddress()}).
         */
        public Builder advertiseAddress(final String address) {
            final String a = address == null || address.isBlank()
                    ? ""
                    : host(
                            ADVERTISE_ADDRESS_PROP_NAME,
                            address,
                            "an address or a host name of this host that its peers" + " reach");
            if (!a.isEmpty() && Addresses.isWildcard(a)) {
                throw new IllegalArgumentException(ADVERTISE_ADDRESS_PROP_NAME + " must be an address peers can dial,"
                        + " not the wildcard " + a
                        + ": leave it empty to announce, to each peer, the address it reaches"
                        + " this host at");
            }
            this.advertiseAddress = a;
            return this;
        }

        /** A host as a setting gives it: no port, nothing a log line or a handshake could not carry. */
        private static String host(final String key, final String value, final String expected) {
            final String h = value == null ? "" : value.strip();
            final String bare = h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
            if (!bare.matches("[0-9A-Za-z._:%-]+") || bare.matches("[^:]*:[0-9]+")) {
                throw new IllegalArgumentException(key + " must be a host, " + expected + " (no port: that is "
                        + PORT_PROP_NAME + "), not '" + value + "'");
            }
            return bare;
        }

        public Builder port(final int p) {
            if (p < 0 || p > 65_535) {
                throw new IllegalArgumentException(PORT_PROP_NAME + " must be 0..65535, got " + p);
            }
            this.port = p;
            return this;
        }

        public Builder secret(final String s) {
            if (s == null || s.length() < MIN_SECRET_CHARS) {
                throw new IllegalArgumentException(
                        SECRET_PROP_NAME + " must have at least " + MIN_SECRET_CHARS
                                + " characters, random ones (" + (s == null ? "none" : s.length())
                                + " given): a shorter secret"
                                + " can be guessed; make one with 'openssl rand -hex 16' or 'head -c 24 /dev/urandom | base64'");
            }
            this.secret = s;
            return this;
        }

        /**
         * The secret held by {@code file}, which must be this user's and which only they may read: that is how a
         * deployment hands its secret to the JVMs it starts without showing it to {@code ps}. Another user's file
         * is refused even if private: its owner could change the secret under the deployment.
         */
        public Builder secretFile(final Path file) {
            try {
                final String owner = FileOwners.otherOwner(file);
                if (owner != null) {
                    throw new IllegalArgumentException(SECRET_FILE_PROP_NAME + " " + file + " belongs to " + owner
                            + ", not to " + System.getProperty("user.name") + "; use a file of your own (chmod 600)");
                }
                final var perms = Files.getPosixFilePermissions(file);
                for (final var p : perms) {
                    if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
                        throw new IllegalArgumentException(SECRET_FILE_PROP_NAME + " " + file + " is readable by"
                                + " others (" + PosixFilePermissions.toString(perms) + "); make it"
                                + " private with chmod 600");
                    }
                }
                return secret(Files.readString(file).strip());
            } catch (IOException e) {
                throw new IllegalArgumentException(SECRET_FILE_PROP_NAME + " " + file + " cannot be read: " + e, e);
            }
        }

        public Builder heartbeat(final Duration d) {
            if (d.toMillis() < 10) {
                throw new IllegalArgumentException(
                        HEARTBEAT_PROP_NAME + " must be at least 10 ms, got " + d.toMillis());
            }
            this.heartbeat = d;
            return this;
        }

        public Builder peerTimeout(final Duration d) {
            this.peerTimeout = d;
            return this;
        }

        /** Zero (the default): a call waits for its reply as long as the peer is alive. */
        public Builder callTimeout(final Duration d) {
            this.callTimeout = d;
            return this;
        }

        /** Zero (the default): half the heap. */
        public Builder maxReceivingBytes(final long bytes) {
            this.maxReceivingBytes = bytes;
            return this;
        }

        public Builder connectTimeout(final Duration d) {
            this.connectTimeout = d;
            return this;
        }

        /** What may cross between active objects (locally too: arguments are copied through it). */
        public Builder serialization(final SerializationConfig config) {
            this.serialization = config;
            return this;
        }

        public Builder spin(final Duration duration) {
            if (duration.isNegative()) {
                throw new IllegalArgumentException(SPIN_PROP_NAME + " must not be negative, got " + duration);
            }
            this.spin = duration;
            return this;
        }

        /** Whether waiters back off on a crowded host ({@value #WAIT_BACKOFF_PROP_NAME}); true by default. */
        public Builder waitBackoff(final boolean on) {
            this.waitBackoff = on;
            return this;
        }

        public Builder synchronousCalls(final SynchronousCalls policy) {
            this.synchronousCalls = policy;
            return this;
        }

        public CoreConfig build() {
            return new CoreConfig(this);
        }
    }
}
