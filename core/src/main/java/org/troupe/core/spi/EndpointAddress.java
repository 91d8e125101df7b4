package org.troupe.core.spi;

/**
 * Where an {@link Endpoint} receives: its runtime and its number there. Plain data, so layers pass it around
 * (it may cross the wire in a call, as ranks exchange their addresses). Two addresses are equal when they name the
 * same endpoint: same runtime and number, whatever address the runtime was reached at.
 *
 * @param runtimeId the runtime the endpoint belongs to
 * @param runtimeAddress where that runtime listens ({@code host:port}), or "" if it does not
 * @param id the endpoint's number in its runtime (never reused while the runtime lives)
 */
public record EndpointAddress(String runtimeId, String runtimeAddress, long id) {
    @Override
    public boolean equals(final Object o) {
        return o instanceof EndpointAddress a && a.id == id && a.runtimeId.equals(runtimeId);
    }

    @Override
    public int hashCode() {
        return runtimeId.hashCode() * 31 + Long.hashCode(id);
    }

    @Override
    public String toString() {
        return "endpoint #" + id + "@" + (runtimeAddress.isEmpty() ? runtimeId : runtimeAddress);
    }
}
