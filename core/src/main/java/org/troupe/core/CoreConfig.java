package org.troupe.core;

import java.time.Duration;
import java.util.Locale;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.troupe.config.TroupeSettings;
import org.troupe.serialization.SerializationConfig;

/**
 * How this JVM's runtime behaves. Immutable; read it from the Troupe settings ({@link #fromSettings}) or build it.
 * Keys are documented in {@code docs/CONFIGURATION.md}.
 */
public final class CoreConfig {
    public static final String SPIN_PROP_NAME = "troupe.core.spinMicros";
    public static final int SPIN_DEFAULT_MICROS = 50;
    public static final String SYNCHRONOUS_CALLS_PROP_NAME = "troupe.core.synchronousCalls";

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
    private final SynchronousCalls synchronousCalls;

    private CoreConfig(final Builder b) {
        this.serialization = b.serialization;
        this.spin = b.spin;
        this.synchronousCalls = b.synchronousCalls;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Reads {@code troupe.core.*} and {@code troupe.serialization.*}; absent keys keep their defaults. */
    public static CoreConfig fromSettings(final ImmutableConfiguration settings) {
        final Builder b = builder().serialization(SerializationConfig.fromSettings(settings));
        b.spin(Duration.ofNanos(1_000L * settings.getInt(SPIN_PROP_NAME, SPIN_DEFAULT_MICROS)));
        final String sync = settings.getString(SYNCHRONOUS_CALLS_PROP_NAME, "allow");
        try {
            b.synchronousCalls(SynchronousCalls.valueOf(sync.strip().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(SYNCHRONOUS_CALLS_PROP_NAME + " must be allow, warn or refuse, not '"
                + sync + "'", e);
        }
        return b.build();
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

    public SynchronousCalls synchronousCalls() {
        return synchronousCalls;
    }

    public static final class Builder {
        private SerializationConfig serialization = SerializationConfig.defaults();
        private Duration spin = Duration.ofNanos(1_000L * SPIN_DEFAULT_MICROS);
        private SynchronousCalls synchronousCalls = SynchronousCalls.ALLOW;

        private Builder() {
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

        public Builder synchronousCalls(final SynchronousCalls policy) {
            this.synchronousCalls = policy;
            return this;
        }

        public CoreConfig build() {
            return new CoreConfig(this);
        }
    }
}
