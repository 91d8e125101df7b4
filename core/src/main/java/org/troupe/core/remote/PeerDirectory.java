package org.troupe.core.remote;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.internal.RuntimeSettings;
import org.troupe.core.transport.Addresses;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.Transport;

/**
 * The other runtimes this one is linked to: one {@link Peer} per open link, the one to send to per runtime id, and
 * the links dialed so far per address. It listens and dials through the {@link Transport}, and tells those who
 * asked ({@link #onPeerLost}) when a runtime's link ends. Callers on any thread ask for a peer (a proxy's call, a
 * lookup, an endpoint's send); the transport's threads tell of links opened and closed through {@link Remoting},
 * the {@link LinkHandler}.
 */
final class PeerDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(PeerDirectory.class);

    private final Transport transport;
    /** What the transport tells of the links it opens: {@link Remoting}. */
    private final LinkHandler handler;

    private final Duration connectTimeout;
    /** The key of the bind address's setting, for the hint a loopback address gets. */
    private final String bindAddressKey;
    /** Makes the peer of a new link. */
    private final Function<Link, Peer> newPeer;
    /** The peer to send to, per runtime id: its first open link. */
    private final Map<String, Peer> peers = new ConcurrentHashMap<>();
    /** Every open link's peer, first or not. */
    private final Map<Link, Peer> byLink = new ConcurrentHashMap<>();
    /** The runtime each address dialed so far led to: a runtime dialed by another name than it announced. */
    private final Map<String, String> dialed = new ConcurrentHashMap<>();

    private final List<BiConsumer<String, String>> lostListeners = new CopyOnWriteArrayList<>();
    private volatile String address = "";

    PeerDirectory(
            final Transport transport,
            final LinkHandler handler,
            final RuntimeSettings settings,
            final Function<Link, Peer> newPeer) {
        this.transport = transport;
        this.handler = handler;
        this.connectTimeout = settings.connectTimeout();
        this.bindAddressKey = settings.bindAddressKey();
        this.newPeer = newPeer;
    }

    /** Where this runtime listens, or "" if it does not. */
    String address() {
        return address;
    }

    /**
     * Starts listening (if not yet) on the interface {@code bindHost} (as the transport is configured: null);
     * returns where peers reach this runtime.
     */
    synchronized String listen(final String bindHost) {
        if (address.isEmpty()) {
            address = bindHost == null ? transport.listen(handler) : transport.listen(handler, bindHost);
        }
        return address;
    }

    /** The peer with that runtime id, linked anew through {@code peerAddress} if there is no open link. */
    Peer peer(final String runtimeId, final String peerAddress) {
        final Peer p = peers.get(runtimeId);
        if (p != null && p.isOpen()) {
            return p;
        }
        if (peerAddress == null || peerAddress.isEmpty()) {
            throw new PeerFailedException(runtimeId, "no link to it, and it announced no address to reach it at");
        }
        final Peer fresh = connect(peerAddress, runtimeId);
        if (!fresh.link.peerRuntimeId().equals(runtimeId)) { // the handshake refuses it; kept as a guard
            throw new PeerFailedException(
                    runtimeId + " at " + peerAddress,
                    "that address now belongs to runtime " + fresh.link.peerRuntimeId());
        }
        return fresh;
    }

    /** The open link to the runtime at {@code peerAddress}, whatever name it is dialed by; made if there is none. */
    Peer connected(final String peerAddress) {
        final String known = dialed.get(peerAddress);
        final Peer same = known == null ? null : peers.get(known);
        if (same != null && same.isOpen()) {
            return same;
        }
        for (final Peer p : peers.values()) {
            if (p.isOpen() && p.link.peerAddress().equals(peerAddress)) {
                return p;
            }
        }
        final Peer fresh = connect(peerAddress, "");
        final String id = fresh.link.peerRuntimeId();
        dialed.put(peerAddress, id);
        final Peer first = peers.get(id);
        if (first != null && first != fresh && first.isOpen()) {
            fresh.link.close("a link to " + id + " is open already");
            return first;
        }
        return fresh;
    }

    /**
     * A new link to whatever runtime listens at {@code parentAddress}, even if one is open: a node JVM offering its
     * node to its parent. Fails with a {@link PeerFailedException} whose cause says why the parent could not be
     * reached, if it could not.
     */
    Peer dialParent(final String parentAddress) {
        try {
            return peerOf(transport.connect(parentAddress, "", handler, connectTimeout));
        } catch (IllegalStateException e) {
            throw new PeerFailedException(parentAddress, e.getMessage(), e.getCause());
        }
    }

    /**
     * Opens a new link to the runtime listening at {@code peerAddress}: to the runtime {@code expectedId} only,
     * unless it is empty.
     */
    private Peer connect(final String peerAddress, final String expectedId) {
        final Link link;
        try {
            link = transport.connect(peerAddress, expectedId, handler, connectTimeout);
        } catch (IllegalStateException e) {
            throw new PeerFailedException(
                    peerAddress, e.getMessage() + loopbackHint(peerAddress, e.getCause()), e.getCause());
        }
        return peerOf(link);
    }

    /**
     * Why a runtime announced at a loopback address may be out of reach, when the network said so: that address
     * reaches only runtimes of this host, and the one announced at it (by a peer that reached it there) may be on
     * another.
     */
    private String loopbackHint(final String peerAddress, final Throwable cause) {
        final String host;
        try {
            host = Addresses.host(peerAddress);
        } catch (IllegalArgumentException notHostPort) { // another transport's kind of address
            return "";
        }
        if (!Addresses.isNetworkFailure(cause) || !Addresses.isLoopback(host)) {
            return "";
        }
        return "; " + host + " is a loopback address, which reaches only this host: if that runtime runs on another"
                + " host, start it with " + bindAddressKey + "=<an address of its host that the others"
                + " reach> (or 0.0.0.0)";
    }

    /**
     * The peer of a link, made on its first use. A runtime's first open link stays the one everything is sent on:
     * a second one (both sides dialing at once, or a runtime dialed by another name) only carries what the other
     * side sends on it, so that frames sent one after the other never race on two links.
     */
    Peer peerOf(final Link link) {
        return byLink.computeIfAbsent(link, l -> {
            final Peer p = newPeer.apply(l);
            peers.compute(l.peerRuntimeId(), (id, first) -> first != null && first.isOpen() ? first : p);
            return p;
        });
    }

    /**
     * The link ended: its peer fails what awaits it; if it was the runtime's first link, the runtime is lost, and
     * the listeners are told, in the order they were added.
     */
    void closed(final Link link, final String reason) {
        final Peer p = byLink.remove(link);
        if (p != null) {
            p.closed(reason);
        }
        LOG.debug("Link to {} closed: {}", link.peerRuntimeId(), reason);
        if (p == null || !peers.remove(link.peerRuntimeId(), p)) {
            return; // a second link: the runtime is still reached through its first
        }
        for (final BiConsumer<String, String> l : lostListeners) {
            l.accept(link.peerRuntimeId(), reason);
        }
    }

    /** Calls {@code listener(runtimeId, reason)} whenever a runtime's link ends; the returned action removes it. */
    Runnable onPeerLost(final BiConsumer<String, String> listener) {
        lostListeners.add(listener);
        return () -> lostListeners.remove(listener);
    }

    /** Whether this runtime has an open link to runtime {@code runtimeId}. */
    boolean isLinked(final String runtimeId) {
        final Peer p = peers.get(runtimeId);
        return p != null && p.isOpen();
    }

    /** Closes the link to runtime {@code runtimeId}, if any. */
    void disconnect(final String runtimeId, final String reason) {
        final Peer p = peers.get(runtimeId);
        if (p != null) {
            p.link.close(reason);
        }
    }

    /** Fails, on every open link, the calls whose reply has not come by {@code now}. */
    void expireCalls(final long now) {
        for (final Peer p : byLink.values()) {
            try {
                p.expireCalls(now);
            } catch (Throwable t) { // the timer must go on: a task that throws is never run again
                LOG.warn("Failing calls past their deadline: {}", t.toString());
            }
        }
    }
}
