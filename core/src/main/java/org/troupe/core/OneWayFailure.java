package org.troupe.core;

/**
 * A one-way call ({@code void}) whose method threw. It has no future to carry the failure, so the runtime of the
 * caller's JVM logs it (WARN) and hands it to the listeners of {@link ActiveObjects#onOneWayFailure}.
 *
 * @param call what was called: "Worker.setSeed on Worker#3@troupe://host:port/node"
 * @param cause what the method threw, with the callee's stack trace
 */
public record OneWayFailure(String call, Throwable cause) {
    @Override
    public String toString() {
        return call + " threw " + cause;
    }
}
