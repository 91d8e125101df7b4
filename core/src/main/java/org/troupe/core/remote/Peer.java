package org.troupe.core.remote;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.CallTimeoutException;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.HopTrace;
import org.troupe.core.internal.OneWayFailures;
import org.troupe.core.internal.ReplySink;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.Spin;
import org.troupe.core.transport.Link;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * This runtime's side of the link to one other runtime: what we send it ({@link FrameWriter}), the calls awaiting
 * its replies ({@link PendingCalls}), the futures it will push values for ({@link PushedFutures}), and the
 * dispatch of the frames it sends. When the link ends, everything awaiting the peer fails with a
 * {@link PeerFailedException} naming it.
 */
final class Peer {
    private static final Logger LOG = LoggerFactory.getLogger(Peer.class);

    /** At most this many values of futures a peer may push before the futures themselves (a value races its future). */
    static final int MAX_EARLY_VALUES = 10_000;
    /** At most this many immediate calls and creations a peer may have running here at once, each on a thread. */
    static final int MAX_RUNNING = 1_024;
    /** A call for several objects reads its arguments once for each: at most this many bytes in all. */
    static final long MAX_CALL_MANY_DECODE_BYTES = 256L << 20;

    /** At most this many of a peer's requests may wait in the queues of this JVM's active objects... */
    static final int MAX_QUEUED_REQUESTS = 1_000_000;
    /** ...and at most this many bytes of them, as they came: a quarter of the heap, or 64 MiB if that is more. */
    static final long MAX_QUEUED_BYTES = Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4);

    final Link link;
    /** The immediate calls and creations of this peer running here. */
    private final AtomicInteger running = new AtomicInteger();
    /** This peer's requests waiting in queues here, and their bytes. */
    private final AtomicInteger queuedRequests = new AtomicInteger();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final Remoting remoting;
    private final CodecSession codec;
    private final FrameWriter writer;
    private final PendingCalls pending;
    private final PushedFutures pushed = new PushedFutures();
    private volatile String failure;
    /** How waits for futures passed on by this peer spin. */
    private final Spin spin;

    Peer(final Link link, final Remoting remoting) {
        this.link = link;
        this.remoting = remoting;
        this.codec = new CodecSession(remoting.connectionConfig(), List.of(new ProxyForm(remoting, this)));
        this.writer = new FrameWriter(link, codec);
        this.spin = new Spin(remoting.spinNanos());
        this.pending = new PendingCalls(remoting.config().callTimeout().toNanos());
    }

    /** Fails the calls whose reply has not come within the call deadline. */
    void expireCalls(final long now) {
        pending.expire(now, f -> new CallTimeoutException(f.call() + " got no reply from " + describe() + " within "
            + remoting.config().callTimeout().toMillis() + " ms (" + remoting.config().callTimeoutKey() + "); it may"
            + " still run there, and a reply that comes later is dropped"));
    }

    Spin spin() {
        return spin;
    }

    FrameWriter writer() {
        return writer;
    }

    /**
     * Counts a request of {@code bytes} about to be queued here; false, counting nothing and closing the link, if
     * the peer would have more than {@link #MAX_QUEUED_REQUESTS} or {@link #MAX_QUEUED_BYTES} waiting: a peer that
     * sends faster than the objects it calls can serve, for ever, would otherwise fill this JVM's memory.
     */
    boolean queuing(final long bytes) {
        final int requests = queuedRequests.incrementAndGet();
        final long all = queuedBytes.addAndGet(bytes);
        if (requests <= MAX_QUEUED_REQUESTS && all <= MAX_QUEUED_BYTES) {
            return true;
        }
        unqueued(bytes);
        link.close("it had more than " + (requests > MAX_QUEUED_REQUESTS ? MAX_QUEUED_REQUESTS + " requests"
            : (MAX_QUEUED_BYTES >> 20) + " MiB of requests") + " waiting to be served here");
        return false;
    }

    /** A request counted by {@link #queuing} left its queue. */
    void unqueued(final long bytes) {
        queuedRequests.decrementAndGet();
        queuedBytes.addAndGet(-bytes);
    }

    /**
     * Runs {@code task} (an immediate call, a creation) on a virtual thread of its own; closes the link instead when
     * the peer already has {@link #MAX_RUNNING} of them running here.
     */
    void runOnItsOwnThread(final Runnable task) {
        if (running.incrementAndGet() > MAX_RUNNING) {
            running.decrementAndGet();
            link.close("it had more than " + MAX_RUNNING + " immediate calls and creations running here at once");
            return;
        }
        Thread.ofVirtual().start(() -> {
            try {
                task.run();
            } finally {
                running.decrementAndGet();
            }
        });
    }

    String describe() {
        return link.peerRuntimeId() + " at " + link.peerAddress();
    }

    // --- Sending ---

    private void send(final byte kind, final long id, final FrameWriter.Body body) {
        send(kind, id, false, body);
    }

    /** Writes one frame; a batched frame may wait to leave with the next ones. */
    private void send(final byte kind, final long id, final boolean batch, final FrameWriter.Body body) {
        checkOpen();
        try {
            remoting.sent(writer.send(kind, id, batch, body));
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
    FutureState call(final long objectId, final int method, final Object[] args, final boolean oneWay,
                     final Supplier<String> what) {
        if (oneWay) {
            send(Frames.CALL, 0, true, o -> callBody(o, objectId, method, args));
            return null;
        }
        final FutureState f = new FutureState(what);
        final long callId = pending.add(f);
        HopTrace.stamp(callId, HopTrace.Hop.CALLED);
        try {
            send(Frames.CALL, callId, o -> callBody(o, objectId, method, args));
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
    FutureState[] callMany(final long[] objectIds, final int method, final Object[] args, final boolean oneWay,
                           final IntFunction<Supplier<String>> what) {
        final int n = objectIds.length;
        final FutureState[] futures = new FutureState[n];
        for (int i = 0; i < n; i++) {
            futures[i] = oneWay ? FutureState.SENT : new FutureState(what.apply(i));
        }
        final long first = oneWay ? 0 : pending.addAll(futures);
        try {
            send(Frames.CALL_MANY, first, oneWay, o -> {
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
    void sendEndpoint(final long to, final long from, final ByteBuffer header, final ByteBuffer payload,
                      final boolean batch) {
        checkOpen();
        final int headerLength = header.remaining();
        final byte[] head = new byte[Frames.ENDPOINT_PREFIX + headerLength];
        final ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).put(Frames.ENDPOINT).putLong(to).putLong(from)
            .putShort((short) headerLength).put(header.duplicate());
        try {
            link.send(head, h.position(), payload, batch);
        } catch (IllegalStateException e) {
            throw new PeerFailedException(describe(), e.getMessage());
        }
        remoting.sent(head.length + payload.remaining());
    }

    void registerNode(final String name) {
        send(Frames.REGISTER_NODE, 0, o -> writer.encode(o, name));
    }

    void terminate(final long objectId) {
        send(Frames.TERMINATE, objectId, o -> { });
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
                    sendOutcome(kind, id, null, e);
                    return;
                }
            }
            try {
                send(kind, id, o -> {
                    o.writeByte(0);
                    writer.encode(o, RemoteFailure.of(t));
                });
            } catch (PeerFailedException e) {
                throw e;
            } catch (RuntimeException | Error e) { // the failure itself cannot be sent (a huge message, say)
                final RemoteFailure bare = new RemoteFailure(TroupeException.class.getName(), "the outcome ("
                    + t.getClass().getName() + ") could not be sent: " + e, new String[0], null);
                send(kind, id, o -> {
                    o.writeByte(0);
                    writer.encode(o, bare);
                });
            }
        } catch (PeerFailedException e) {
            LOG.debug("Could not answer {}: {}", describe(), e.getMessage());
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
        public void complete(final Object value) {
        }

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

    void received(final byte[] frame, final int offset, final int length) {
        final TroupeInput in = new TroupeInput(frame, offset, length);
        final byte kind = in.readByte();
        final long id = in.readLong();
        switch (kind) {
            case Frames.CALL -> {
                HopTrace.stamp(id, HopTrace.Hop.READ);
                final long objectId = in.readLong();
                final int method = in.readInt();
                final Object[] args;
                try {
                    args = codec.decoder().decode(in, Object[].class);
                } catch (SerializationException e) {
                    replyIfAsked(id, e);
                    return;
                }
                HopTrace.stamp(id, HopTrace.Hop.DECODED);
                remoting.dispatchCall(this, id, objectId, method, args, length);
            }
            case Frames.CALL_MANY -> receiveCallMany(in, id, offset + length);
            case Frames.REPLY -> {
                HopTrace.stamp(id, HopTrace.Hop.REPLY_READ);
                final FutureState f = pending.take(id);
                final PushedFutures.Outcome outcome = readOutcome(in, f == null ? "a call" : f.call());
                if (f != null) {
                    outcome.settle(f);
                    HopTrace.stamp(id, HopTrace.Hop.SETTLED);
                }
            }
            case Frames.FUTURE_VALUE -> {
                if (!pushed.pushed(id, readOutcome(in, "a future passed on by " + describe()), MAX_EARLY_VALUES)) {
                    link.close("it pushed the values of more than " + MAX_EARLY_VALUES + " futures it had not"
                        + " passed on");
                }
            }
            case Frames.ENDPOINT -> receiveEndpoint(frame, in.position(), offset + length, id);
            case Frames.ONE_WAY_FAILED -> receiveOneWayFailure(in);
            case Frames.CREATE, Frames.LOOKUP, Frames.REGISTER_NODE, Frames.LOOKUP_ENDPOINT -> {
                final Object body;
                try {
                    body = codec.decoder().decode(in);
                } catch (SerializationException e) {
                    replyIfAsked(id, e);
                    return;
                }
                remoting.dispatchRequest(this, kind, id, body);
            }
            case Frames.TERMINATE -> remoting.dispatchTerminate(id);
            default -> link.close("unknown frame kind " + kind);
        }
    }

    /** Hands an endpoint frame to the endpoint, as read-only views of the frame's bytes. */
    private void receiveEndpoint(final byte[] frame, final int at, final int end, final long to) {
        final ByteBuffer b = ByteBuffer.wrap(frame, at, end - at).order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < Frames.ENDPOINT_PREFIX - 9) {
            link.close("an endpoint frame of " + (end - at) + " bytes after its kind and receiver");
            return;
        }
        final long from = b.getLong();
        final int headerLength = Short.toUnsignedInt(b.getShort());
        if (headerLength > b.remaining()) {
            link.close("an endpoint frame announcing a header of " + headerLength + " bytes in " + b.remaining());
            return;
        }
        final ByteBuffer header = b.slice(b.position(), headerLength).asReadOnlyBuffer();
        final ByteBuffer payload = b.slice(b.position() + headerLength, b.remaining() - headerLength)
            .asReadOnlyBuffer();
        remoting.deliverEndpoint(new EndpointAddress(link.peerRuntimeId(), link.peerAddress(), from), to,
            header, payload);
    }

    private void receiveOneWayFailure(final TroupeInput in) {
        final String call;
        final RemoteFailure rf;
        try {
            call = codec.decoder().decode(in, String.class);
            rf = codec.decoder().decode(in, RemoteFailure.class);
        } catch (SerializationException e) {
            LOG.warn("Could not read a one-way call's failure from {}: {}", describe(), e.getMessage());
            return;
        }
        OneWayFailures.report(call, rf.toThrowable(remoting.connectionConfig(), call));
    }

    /** Decodes the shared arguments once per object, so that no two objects share a mutable argument. */
    private void receiveCallMany(final TroupeInput in, final long first, final int end) {
        final int n = in.readInt();
        if (n <= 0 || n > in.remaining() / Long.BYTES) {
            link.close("a call for " + n + " objects in a frame of " + in.remaining() + " bytes");
            return;
        }
        final long[] objectIds = new long[n];
        for (int i = 0; i < n; i++) {
            objectIds[i] = in.readLong();
        }
        final int method = in.readInt();
        final int argsAt = in.position();
        if ((long) n * (end - argsAt) > MAX_CALL_MANY_DECODE_BYTES) {
            link.close("a call for " + n + " objects with " + (end - argsAt) + " bytes of arguments, to be read once"
                + " for each: more than " + (MAX_CALL_MANY_DECODE_BYTES >> 20) + " MiB in all");
            return;
        }
        final byte[] frame = in.getBuffer();
        pushed.withinOneFrame(() -> {
            for (int i = 0; i < n; i++) {
                final long callId = first == 0 ? 0 : first + i;
                final Object[] args;
                try {
                    args = codec.decoder().decode(new TroupeInput(frame, argsAt, end - argsAt), Object[].class);
                } catch (SerializationException e) {
                    replyIfAsked(callId, e);
                    continue;
                }
                remoting.dispatchCall(this, callId, objectIds[i], method, args, end - argsAt);
            }
        });
    }

    private void replyIfAsked(final long callId, final SerializationException e) {
        LOG.warn("Could not read a request from {}: {}", describe(), e.getMessage());
        if (callId != 0) {
            reply(callId, null, e);
        }
    }

    /** The value or failure of an outcome frame. */
    private PushedFutures.Outcome readOutcome(final TroupeInput in, final String where) {
        try {
            final boolean ok = in.readByte() != 0;
            final Object value = codec.decoder().decode(in);
            if (ok) {
                return new PushedFutures.Outcome(value, null);
            }
            final RemoteFailure rf = (RemoteFailure) value;
            return new PushedFutures.Outcome(null, rf.toThrowable(remoting.connectionConfig(), where));
        } catch (SerializationException | ClassCastException e) {
            return new PushedFutures.Outcome(null, e);
        } catch (RuntimeException e) {
            // no ok flag, or a failure without its description: a reply's call is no longer pending, and would
            // wait for ever if this went up and only dropped the link
            return new PushedFutures.Outcome(null, new SerializationException("Could not read the outcome of " + where
                + " sent by " + describe() + ": " + e, e));
        }
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
