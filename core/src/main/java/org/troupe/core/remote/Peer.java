package org.troupe.core.remote;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.CallTimeoutException;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.instrument.LinkMeters;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.HopTrace;
import org.troupe.core.internal.ReplySink;
import org.troupe.core.spi.Spin;
import org.troupe.core.transport.Link;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.TroupeOutput;

/**
 * This runtime's side of the link to one other runtime: what we send it ({@link FrameWriter}), the calls awaiting
 * its replies ({@link PendingCalls}), the futures it will push values for ({@link PushedFutures}), how much it may
 * have us serve ({@link ServingLimits}), and the frames it sends, which {@link FrameReader} reads. When the link
 * ends, everything awaiting the peer fails with a {@link PeerFailedException} naming it. The {@link PeerDirectory}
 * makes one per link. Any thread sends through it (a proxy's caller, a body replying, a future pushing its value):
 * the writer's lock orders the frames; the thread that reads the link hands frames to {@link #received}.
 */
final class Peer {
    private static final Logger LOG = LoggerFactory.getLogger(Peer.class);

    final Link link;
    private final ServingLimits limits;
    private final Remoting remoting;
    private final FrameWriter writer;
    private final FrameReader reader;
    private final PendingCalls pending;
    private final PushedFutures pushed = new PushedFutures();
    private volatile String failure;
    /** How waits for futures passed on by this peer spin. */
    private final Spin spin;
    /** What crossed this link, counted with the other links to the same runtime. */
    final LinkMeters meters;

    Peer(final Link link, final Remoting remoting) {
        this.link = link;
        this.limits = new ServingLimits(link::close);
        this.remoting = remoting;
        final CodecSession codec =
                new CodecSession(remoting.connectionConfig(), List.of(new ProxyForm(remoting, this)));
        this.meters = remoting.meters().link(link.peerRuntimeId());
        this.writer = new FrameWriter(link, codec, meters);
        this.spin = new Spin(remoting.spinNanos());
        this.pending = new PendingCalls(remoting.config().callTimeout().toNanos());
        this.reader = new FrameReader(this, codec, pending, pushed, remoting.dispatcher(), remoting.connectionConfig());
    }

    /** Fails the calls whose reply has not come within the call deadline. */
    void expireCalls(final long now) {
        pending.expire(
                now,
                f -> new CallTimeoutException(f.call() + " got no reply from " + describe() + " within "
                        + remoting.config().callTimeout().toMillis() + " ms ("
                        + remoting.config().callTimeoutKey() + "); it may"
                        + " still run there, and a reply that comes later is dropped"));
    }

    Spin spin() {
        return spin;
    }

    FrameWriter writer() {
        return writer;
    }

    /** What this peer may have this runtime serve at once. */
    ServingLimits limits() {
        return limits;
    }

    String describe() {
        return link.peerRuntimeId() + " at " + link.peerAddress();
    }

    // --- Sending ---

    private void send(final byte kind, final long id, final FrameWriter.Body body) {
        send(kind, id, false, 0, body);
    }

    /** Writes one frame; a batched frame may wait to leave with the next ones. */
    private void send(
            final byte kind, final long id, final boolean batch, final int calls, final FrameWriter.Body body) {
        checkOpen();
        try {
            remoting.sent(writer.send(kind, id, batch, calls, body));
        } catch (IllegalStateException e) {
            throw new PeerFailedException(describe(), e.getMessage());
        }
    }

    private void checkOpen() {
        final String f = failure;
        if (f != null) {
            throw new PeerFailedException(describe(), f);
        }
    }

    /** Sends a call; returns its future, or null for a one-way call. */
    FutureState call(
            final long objectId,
            final int method,
            final Object[] args,
            final boolean oneWay,
            final Supplier<String> what) {
        if (oneWay) {
            send(Frames.CALL, 0, true, 1, o -> callBody(o, objectId, method, args));
            return null;
        }
        final FutureState f = new FutureState(what);
        final long callId = pending.add(f);
        HopTrace.stamp(callId, HopTrace.Hop.CALLED);
        try {
            send(Frames.CALL, callId, false, 1, o -> callBody(o, objectId, method, args));
            HopTrace.stamp(callId, HopTrace.Hop.WRITTEN);
        } catch (RuntimeException e) {
            pending.remove(callId, 1);
            throw e;
        }
        failPendingIfClosed();
        return f;
    }

    /**
     * Sends one call with the same arguments to several objects of the peer, in one frame: the arguments are
     * serialized once. Returns one future per object; for a one-way call, {@link FutureState#SENT}.
     */
    FutureState[] callMany(
            final long[] objectIds,
            final int method,
            final Object[] args,
            final boolean oneWay,
            final IntFunction<Supplier<String>> what) {
        final int n = objectIds.length;
        final FutureState[] futures = new FutureState[n];
        for (int i = 0; i < n; i++) {
            futures[i] = oneWay ? FutureState.SENT : new FutureState(what.apply(i));
        }
        final long first = oneWay ? 0 : pending.addAll(futures);
        try {
            send(Frames.CALL_MANY, first, oneWay, n, o -> {
                o.writeInt(n);
                for (final long id : objectIds) {
                    o.writeLong(id);
                }
                o.writeInt(method);
                writer.encode(o, args);
            });
        } catch (RuntimeException e) {
            if (!oneWay) {
                pending.remove(first, n);
            }
            throw e;
        }
        failPendingIfClosed();
        return futures;
    }

    /** Whether the callee serves it at once ({@code @Immediate}) is for the callee's side to say, not the frame. */
    private void callBody(final TroupeOutput o, final long objectId, final int method, final Object[] args) {
        o.writeLong(objectId);
        o.writeInt(method);
        writer.encode(o, args);
    }

    /** Sends a request of another kind (create, lookup) whose reply completes the returned future. */
    FutureState request(final byte kind, final Object body, final String what) {
        final FutureState f = new FutureState(() -> what);
        final long callId = pending.add(f);
        try {
            send(kind, callId, o -> writer.encode(o, body));
        } catch (RuntimeException e) {
            pending.remove(callId, 1);
            throw e;
        }
        failPendingIfClosed();
        return f;
    }

    /**
     * Sends an endpoint frame: the prefix (little-endian, as the codec writes the kind and id of every frame) and
     * the header gathered in a small array, the payload as it is.
     */
    void sendEndpoint(
            final long to, final long from, final ByteBuffer header, final ByteBuffer payload, final boolean batch) {
        checkOpen();
        final int headerLength = header.remaining();
        final byte[] head = new byte[Frames.ENDPOINT_PREFIX + headerLength];
        final ByteBuffer h = ByteBuffer.wrap(head)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(Frames.ENDPOINT)
                .putLong(to)
                .putLong(from)
                .putShort((short) headerLength)
                .put(header.duplicate());
        try {
            link.send(head, h.position(), payload, batch);
        } catch (IllegalStateException e) {
            throw new PeerFailedException(describe(), e.getMessage());
        }
        remoting.sent(head.length + payload.remaining());
        meters.sent(head.length + payload.remaining());
    }

    void registerNode(final String name) {
        send(Frames.REGISTER_NODE, 0, o -> writer.encode(o, name));
    }

    void terminate(final long objectId) {
        send(Frames.TERMINATE, objectId, o -> {});
    }

    void reply(final long callId, final Object value, final Throwable t) {
        sendOutcome(Frames.REPLY, callId, value, t);
    }

    /**
     * Pushes the outcome of the future {@code futureId} passed on to the peer, unless the frame that carried it was
     * {@code abandoned}: that is known only under the writer's lock, as the frame may be failing as this runs.
     */
    void futureValue(final long futureId, final Object value, final Throwable t, final AtomicBoolean abandoned) {
        writer.runLocked(() -> {
            if (!abandoned.get()) {
                sendOutcome(Frames.FUTURE_VALUE, futureId, value, t);
                meters.pushedLocked();
            }
        });
    }

    /** Sends a value or a failure; a value that cannot be serialized is sent as that failure instead. */
    private void sendOutcome(final byte kind, final long id, final Object value, final Throwable t) {
        if (failure != null) {
            return; // nobody to tell
        }
        try {
            if (t == null) {
                try {
                    send(kind, id, o -> {
                        o.writeByte(1);
                        writer.encode(o, value);
                    });
                    return;
                } catch (PeerFailedException e) {
                    throw e;
                } catch (RuntimeException | Error e) { // cannot be encoded, too large, out of memory: say so instead
                    sendFailure(kind, id, e, RemoteFailure.resultNotSent(e));
                    return;
                }
            }
            sendFailure(kind, id, t, RemoteFailure.of(t));
        } catch (PeerFailedException e) {
            LOG.debug("Could not answer {}: {}", describe(), e.getMessage());
        }
    }

    /** Sends {@code failure}, the description of {@code t}, or if even that cannot be sent, a bare account of it. */
    private void sendFailure(final byte kind, final long id, final Throwable t, final RemoteFailure failure) {
        try {
            send(kind, id, o -> {
                o.writeByte(0);
                writer.encode(o, failure);
            });
        } catch (PeerFailedException e) {
            throw e;
        } catch (RuntimeException | Error e) { // the failure itself cannot be sent (a huge message, say)
            final RemoteFailure bare = new RemoteFailure(
                    TroupeException.class.getName(),
                    "the outcome (" + t.getClass().getName() + ") could not be sent: " + e,
                    new String[0],
                    null);
            send(kind, id, o -> {
                o.writeByte(0);
                writer.encode(o, bare);
            });
        }
    }

    /** Where the outcome of a request from this peer goes. */
    ReplySink replySink(final long callId) {
        return new ReplySink() {
            @Override
            public void complete(final Object value) {
                HopTrace.stamp(callId, HopTrace.Hop.RETURNED);
                reply(callId, value, null);
                HopTrace.stamp(callId, HopTrace.Hop.REPLY_WRITTEN);
            }

            @Override
            public void fail(final Throwable t) {
                reply(callId, null, t);
            }

            @Override
            public void serving() {
                HopTrace.stamp(callId, HopTrace.Hop.SERVING);
            }
        };
    }

    /**
     * Where the outcome of a one-way call from this peer goes: nowhere, unless the method threw; then the peer,
     * whose runtime logs it at the caller's side (the one place where someone reads about it). One for all the
     * peer's one-way calls: the call is named only when it failed.
     */
    ReplySink oneWaySink() {
        return oneWay;
    }

    private final ReplySink oneWay = new ReplySink() {
        @Override
        public boolean isOneWay() {
            return true;
        }

        @Override
        public void complete(final Object value) {}

        @Override
        public void fail(final Throwable t) {
            failOneWay("a one-way call from " + describe(), t);
        }

        @Override
        public void failOneWay(final String call, final Throwable t) {
            try {
                if (failure == null) {
                    send(Frames.ONE_WAY_FAILED, 0, o -> {
                        writer.encode(o, call);
                        writer.encode(o, RemoteFailure.of(t));
                    });
                    LOG.debug("One-way call {} threw; reported to {}", call, describe(), t);
                    return;
                }
            } catch (RuntimeException e) {
                LOG.debug("Could not report a one-way failure to {}: {}", describe(), e.toString());
            }
            LOG.warn("One-way call {} from {} threw, and its caller could not be told", call, describe(), t);
        }
    };

    /** The local future for a future the peer passed on as {@code futureId}. */
    FutureState incomingFuture(final long futureId) {
        final FutureState f = pushed.incoming(futureId, () -> "a future from " + describe());
        failPendingIfClosed();
        return f;
    }

    // --- Receiving (on whichever thread reads the link, one at a time) ---

    /** A frame the peer sent: {@link FrameReader} reads it and does what it says. */
    void received(final byte[] frame, final int offset, final int length) {
        meters.received(length);
        reader.read(frame, offset, length);
    }

    /** A frame lent in place by the transport ({@link org.troupe.core.transport.LinkHandler}). */
    void received(final ByteBuffer frame) {
        meters.received(frame.remaining());
        reader.read(frame);
    }

    // --- The end ---

    void closed(final String reason) {
        failure = reason;
        failPendingIfClosed();
    }

    /** Once the link has ended, nobody may wait for this peer: also what was registered while it ended. */
    private void failPendingIfClosed() {
        final String reason = failure;
        if (reason != null) {
            pending.failAll(() -> new PeerFailedException(describe(), reason));
            pushed.failAll(() -> new PeerFailedException(describe(), reason));
        }
    }

    boolean isOpen() {
        return failure == null && link.isOpen();
    }
}
