package org.troupe.core.internal;

import java.time.Duration;

/**
 * The settings the runtime's machinery (this package and {@code remote}) reads, built by the application API from
 * its {@code CoreConfig}, so that the machinery does not depend on the API. Messages that tell how to change a
 * setting name its key, which the API passes along.
 *
 * @param spinNanos how long a thread waiting for a reply or a request spins before it parks
 * @param synchronousCalls what a call to a method whose result cannot be a future does
 * @param callTimeout how long a call to another JVM waits for its reply before its future fails; zero for no deadline
 * @param connectTimeout how long dialing another runtime may take
 * @param callTimeoutKey the key of the call deadline's setting
 * @param bindAddressKey the key of the bind address's setting
 * @param metrics whether the runtime counts calls, requests and link traffic ({@code troupe.metrics.enabled})
 */
public record RuntimeSettings(
        long spinNanos,
        SynchronousCalls synchronousCalls,
        Duration callTimeout,
        Duration connectTimeout,
        String callTimeoutKey,
        String bindAddressKey,
        boolean metrics) {
    /** What a call to a method whose result cannot be a future does: as {@code CoreConfig.SynchronousCalls}. */
    public enum SynchronousCalls {
        /** Runs it and waits for the result. */
        ALLOW,
        /** Runs it and waits, logging a warning the first time each such method is called. */
        WARN,
        /** Refuses it: every call must be asynchronous. */
        REFUSE
    }
}
