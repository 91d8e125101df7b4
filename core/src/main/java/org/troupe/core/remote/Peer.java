package org.troupe.core.remote;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.PeerFailedException;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.ReplySink;
import org.troupe.core.spi.Spin;
import org.troupe.core.transport.Link;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * This runtime's side of the link to one other runtime: the serialization session (class table) of the
 * connection, the calls awaiting replies from the peer, and the futures the peer will push values for. When the
 * link ends, everything awaiting the peer fails with a {@link PeerFailedException} naming it.
 */
final class Peer {
    private static final Logger LOG = LoggerFactory.getLogger(Peer.class);

    final Link link;
    private final Remoting remoting;
    private final CodecSession codec;
    private final ReentrantLock sendLock = new ReentrantLock();
    private final TroupeOutput out;
    private final Map<Long, FutureState> pending = new ConcurrentHashMap<>();
    private final AtomicLong nextCall = new AtomicLong(1);
    private final Map<Long, FutureState> awaited = new ConcurrentHashMap<>();
    /** Values of futures that arrived before the message that carries the future itself (sent concurrently). */
    private final Map<Long, Object[]> early = new ConcurrentHashMap<>();
    private volatile String failure;
    /** Futures read so far in the frame for several objects being read; only its reading thread touches it. */
    private Map<Long, FutureState> frameFutures;
    /** How waits for futures passed on by this peer spin. */
    private final Spin spin;

    Peer(final Link link, final Remoting remoting) {
        this.link = link;
        this.remoting = remoting;
        this.codec = new CodecSession(remoting.connectionConfig(), List.of(new ProxyForm(remoting, this)));
        this.out = codec.encoder().newOutput();
        this.spin = new Spin(remoting.spinNanos());
    }

    Spin spin() {
        return spin;
    }

    String describe() {
        return link.peerRuntimeId() + " at " + link.peerAddress();
    }

    // --- Sending ---

    /** Writes one frame: kind, id, then whatever {@code body} writes (raw fields and encoded objects). */
    private void send(final byte kind, final long id, final FrameBody body) {
        send(kind, id, false, body);
    }

    /** As {@link #send(byte, long, FrameBody)}; a batched frame may wait to leave with the next ones. */
    private void send(final byte kind, final long id, final boolean batch, final FrameBody body) {
        checkOpen();
        sendLock.lock();
        try {
            out.setPosition(0);
            out.writeByte(kind);
            out.writeLong(id);
            body.write(out);
            link.send(out.getBuffer(), 0, out.position(), batch);
            remoting.sent(out.position());
        } catch (IllegalStateException e) {
            throw new PeerFailedException(describe(), e.getMessage());
        } finally {
            sendLock.unlock();
        }
    }

    @FunctionalInterface
    private interface FrameBody {
        void write(TroupeOutput out);
    }

    private void encode(final TroupeOutput o, final Object value) {
        codec.encoder().encode(value, o);
    }

    private void checkOpen() {
        final String f = failure;
        if (f != null) {
            throw new PeerFailedException(describe(), f);
        }
    }

    /** Sends a call; returns its future, or null for a one-way call. */
    FutureState call(final long objectId, final int method, final boolean immediate, final Object[] args,
                     final boolean oneWay, final Supplier<String> what) {
        if (oneWay) {
            send(Frames.CALL, 0, true, o -> callBody(o, objectId, method, immediate, args));
            return null;
        }
        final long callId = nextCall.getAndIncrement();
        final FutureState f = new FutureState(what);
        pending.put(callId, f);
        try {
            send(Frames.CALL, callId, o -> callBody(o, objectId, method, immediate, args));
        } catch (RuntimeException e) {
            pending.remove(callId);
            throw e;
        }
        if (failure != null) { // the link ended while we sent: make sure nobody waits for ever
            failPending();
        }
        return f;
    }

    /**
     * Sends one call with the same arguments to several objects of the peer, in one frame: the arguments are
     * serialized once. Returns one future per object; for a one-way call, {@link FutureState#SENT}.
     */
    FutureState[] callMany(final long[] objectIds, final int method, final boolean immediate, final Object[] args,
                           final boolean oneWay, final IntFunction<Supplier<String>> what) {
        final int n = objectIds.length;
        final FutureState[] futures = new FutureState[n];
        final long first = oneWay ? 0 : nextCall.getAndAdd(n);
        for (int i = 0; i < n; i++) {
            futures[i] = oneWay ? FutureState.SENT : new FutureState(what.apply(i));
            if (!oneWay) {
                pending.put(first + i, futures[i]);
            }
        }
        try {
            send(Frames.CALL_MANY, first, oneWay, o -> {
                o.writeInt(n);
                for (final long id : objectIds) {
                    o.writeLong(id);
                }
                o.writeInt(method);
                o.writeByte(immediate ? 1 : 0);
                encode(o, args);
            });
        } catch (RuntimeException e) {
            for (int i = 0; i < n && !oneWay; i++) {
                pending.remove(first + i);
            }
            throw e;
        }
        if (failure != null) {
            failPending();
        }
        return futures;
    }

    private void callBody(final TroupeOutput o, final long objectId, final int method, final boolean immediate,
                          final Object[] args) {
        o.writeLong(objectId);
        o.writeInt(method);
        o.writeByte(immediate ? 1 : 0);
        encode(o, args);
    }

    /** Sends a request of another kind (create, lookup) whose reply completes the returned future. */
    FutureState request(final byte kind, final Object body, final String what) {
        final long callId = nextCall.getAndIncrement();
        final FutureState f = new FutureState(() -> what);
        pending.put(callId, f);
        try {
            send(kind, callId, o -> encode(o, body));
        } catch (RuntimeException e) {
            pending.remove(callId);
            throw e;
        }
        return f;
    }

    void registerNode(final String name) {
        send(Frames.REGISTER_NODE, 0, o -> encode(o, name));
    }

    void terminate(final long objectId) {
        send(Frames.TERMINATE, objectId, o -> { });
    }

    void reply(final long callId, final Object value, final Throwable t) {
        sendOutcome(Frames.REPLY, callId, value, t);
    }

    void futureValue(final long futureId, final Object value, final Throwable t) {
        sendOutcome(Frames.FUTURE_VALUE, futureId, value, t);
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
                        encode(o, value);
                    });
                    return;
                } catch (SerializationException e) {
                    sendOutcome(kind, id, null, e);
                    return;
                }
            }
            send(kind, id, o -> {
                o.writeByte(0);
                encode(o, RemoteFailure.of(t));
            });
        } catch (PeerFailedException e) {
            LOG.debug("Could not answer {}: {}", describe(), e.getMessage());
        }
    }

    /** Where the outcome of a request from this peer goes. */
    ReplySink replySink(final long callId) {
        return new ReplySink() {
            @Override
            public void complete(final Object value) {
                reply(callId, value, null);
            }

            @Override
            public void fail(final Throwable t) {
                reply(callId, null, t);
            }
        };
    }

    /**
     * The local future for a future the peer passed on as {@code futureId}; within one frame read for several
     * objects, the same one each time the id is read, as the peer pushes each value once.
     */
    FutureState incomingFuture(final long futureId) {
        final Map<Long, FutureState> shared = frameFutures;
        final FutureState seen = shared == null ? null : shared.get(futureId);
        if (seen != null) {
            return seen;
        }
        final FutureState state = new FutureState(() -> "a future from " + describe());
        await(futureId, state);
        if (shared != null) {
            shared.put(futureId, state);
        }
        return state;
    }

    /** Registers a local future that the peer will push the value of. */
    void await(final long futureId, final FutureState state) {
        final Object[] already = early.remove(futureId);
        if (already != null) {
            settle(state, already);
            return;
        }
        awaited.put(futureId, state);
        final Object[] raced = early.remove(futureId);
        if (raced != null && awaited.remove(futureId) != null) {
            settle(state, raced);
        }
        if (failure != null) {
            failPending();
        }
    }

    private void settle(final FutureState state, final Object[] outcome) {
        if (outcome[1] != null) {
            state.fail((Throwable) outcome[1]);
        } else {
            state.complete(outcome[0]);
        }
    }

    // --- Receiving (on whichever thread reads the link, one at a time) ---

    void received(final byte[] frame, final int offset, final int length) {
        final TroupeInput in = new TroupeInput(frame, offset, length);
        final byte kind = in.readByte();
        final long id = in.readLong();
        switch (kind) {
            case Frames.CALL -> {
                final long objectId = in.readLong();
                final int method = in.readInt();
                final boolean immediate = in.readByte() != 0;
                final Object[] args;
                try {
                    args = codec.decoder().decode(in, Object[].class);
                } catch (SerializationException e) {
                    replyIfAsked(id, e);
                    return;
                }
                remoting.dispatchCall(this, id, objectId, method, immediate, args);
            }
            case Frames.CALL_MANY -> receiveCallMany(in, id, offset + length);
            case Frames.REPLY -> {
                final FutureState f = pending.remove(id);
                final Object[] outcome = readOutcome(in, f == null ? "a call" : f.call());
                if (f != null) {
                    settle(f, outcome);
                }
            }
            case Frames.FUTURE_VALUE -> {
                final Object[] outcome = readOutcome(in, "a future passed on by " + describe());
                final FutureState f = awaited.remove(id);
                if (f != null) {
                    settle(f, outcome);
                } else {
                    early.put(id, outcome);
                }
            }
            case Frames.CREATE, Frames.LOOKUP, Frames.REGISTER_NODE -> {
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
        final boolean immediate = in.readByte() != 0;
        final int argsAt = in.position();
        frameFutures = new HashMap<>();
        try {
            dispatchEach(in.getBuffer(), argsAt, end, first, objectIds, method, immediate);
        } finally {
            frameFutures = null;
        }
    }

    private void dispatchEach(final byte[] frame, final int argsAt, final int end, final long first,
                              final long[] objectIds, final int method, final boolean immediate) {
        final int n = objectIds.length;
        for (int i = 0; i < n; i++) {
            final long callId = first == 0 ? 0 : first + i;
            final Object[] args;
            try {
                args = codec.decoder().decode(new TroupeInput(frame, argsAt, end - argsAt), Object[].class);
            } catch (SerializationException e) {
                replyIfAsked(callId, e);
                continue;
            }
            remoting.dispatchCall(this, callId, objectIds[i], method, immediate, args);
        }
    }

    private void replyIfAsked(final long callId, final SerializationException e) {
        LOG.warn("Could not read a request from {}: {}", describe(), e.getMessage());
        if (callId != 0) {
            reply(callId, null, e);
        }
    }

    /** {value, failure} from an outcome frame. */
    private Object[] readOutcome(final TroupeInput in, final String where) {
        try {
            final boolean ok = in.readByte() != 0;
            final Object value = codec.decoder().decode(in);
            if (ok) {
                return new Object[] {value, null};
            }
            final RemoteFailure rf = (RemoteFailure) value;
            return new Object[] {null, rf.toThrowable(remoting.connectionConfig(), where)};
        } catch (SerializationException | ClassCastException e) {
            return new Object[] {null, e};
        }
    }

    // --- The end ---

    void closed(final String reason) {
        failure = reason;
        failPending();
    }

    private void failPending() {
        final String reason = failure;
        for (final Long id : pending.keySet()) {
            final FutureState f = pending.remove(id);
            if (f != null) {
                f.fail(new PeerFailedException(describe(), reason));
            }
        }
        for (final Long id : awaited.keySet()) {
            final FutureState f = awaited.remove(id);
            if (f != null) {
                f.fail(new PeerFailedException(describe(), reason));
            }
        }
    }

    boolean isOpen() {
        return failure == null && link.isOpen();
    }
}
