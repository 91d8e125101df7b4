package org.troupe.core.remote;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.HopTrace;
import org.troupe.core.internal.OneWayFailures;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;

/**
 * Reads the frames one peer sends, as {@link Frames} lays them out, with the connection's codec session: a reply
 * settles its pending call, a pushed value its future, and a request goes to the {@link RequestDispatcher}. The
 * counterpart of {@link FrameWriter}, one per {@link Peer}. Runs on whichever thread reads the peer's link, one
 * frame at a time: the frame's bytes are valid only during {@link #read}. A frame whose body cannot be decoded is
 * answered with that failure when it asked for an answer; one that breaks the protocol closes the link.
 */
final class FrameReader {
    private static final Logger LOG = LoggerFactory.getLogger(FrameReader.class);

    /** At most this many values of futures a peer may push before the futures themselves (a value races its future). */
    static final int MAX_EARLY_VALUES = 10_000;
    /** A call for several objects reads its arguments once for each: at most this many bytes in all. */
    static final long MAX_CALL_MANY_DECODE_BYTES = 256L << 20;

    private final Peer peer;
    private final CodecSession codec;
    private final PendingCalls pending;
    private final PushedFutures pushed;
    private final RequestDispatcher dispatch;
    /** What may be rebuilt here of a failure the peer sent. */
    private final SerializationConfig config;

    FrameReader(
            final Peer peer,
            final CodecSession codec,
            final PendingCalls pending,
            final PushedFutures pushed,
            final RequestDispatcher dispatch,
            final SerializationConfig config) {
        this.peer = peer;
        this.codec = codec;
        this.pending = pending;
        this.pushed = pushed;
        this.dispatch = dispatch;
        this.config = config;
    }

    /** Reads the frame of {@code length} bytes at {@code offset} of {@code frame}, and does what it says. */
    void read(final byte[] frame, final int offset, final int length) {
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
                peer.meters.callsReceived(1);
                dispatch.call(peer, id, objectId, method, args, length);
            }
            case Frames.CALL_MANY -> readCallMany(in, id, offset + length);
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
                if (!pushed.pushed(id, readOutcome(in, "a future passed on by " + peer.describe()), MAX_EARLY_VALUES)) {
                    peer.link.close("it pushed the values of more than " + MAX_EARLY_VALUES + " futures it had not"
                            + " passed on");
                }
            }
            case Frames.ENDPOINT -> readEndpoint(frame, in.position(), offset + length, id);
            case Frames.ONE_WAY_FAILED -> readOneWayFailure(in);
            case Frames.CREATE, Frames.LOOKUP, Frames.REGISTER_NODE, Frames.LOOKUP_ENDPOINT -> {
                final Object body;
                try {
                    body = codec.decoder().decode(in);
                } catch (SerializationException e) {
                    replyIfAsked(id, e);
                    return;
                }
                dispatch.request(peer, kind, id, body);
            }
            case Frames.TERMINATE -> dispatch.terminate(id);
            default -> peer.link.close("unknown frame kind " + kind);
        }
    }

    /**
     * A frame lent in place by the transport: an endpoint frame is read there, its payload copied once, by the
     * endpoint's handler, into the receiver's buffer; any other is copied into an array first.
     */
    void read(final ByteBuffer frame) {
        final ByteBuffer b = frame.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() >= Frames.ENDPOINT_PREFIX && b.get(0) == Frames.ENDPOINT) {
            final long to = b.getLong(1);
            readEndpoint(b.position(9), to);
            return;
        }
        final byte[] copy = new byte[b.remaining()];
        b.get(copy);
        read(copy, 0, copy.length);
    }

    /** Hands an endpoint frame to the endpoint, as read-only views of the frame's bytes. */
    private void readEndpoint(final byte[] frame, final int at, final int end, final long to) {
        final ByteBuffer b = ByteBuffer.wrap(frame, at, end - at).order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < Frames.ENDPOINT_PREFIX - 9) {
            peer.link.close("an endpoint frame of " + (end - at) + " bytes after its kind and receiver");
            return;
        }
        readEndpoint(b, to);
    }

    /** An endpoint frame after its kind and receiver, in {@code b} from its position: sender, header, payload. */
    private void readEndpoint(final ByteBuffer b, final long to) {
        final long from = b.getLong();
        final int headerLength = Short.toUnsignedInt(b.getShort());
        if (headerLength > b.remaining()) {
            peer.link.close("an endpoint frame announcing a header of " + headerLength + " bytes in " + b.remaining());
            return;
        }
        final ByteBuffer header = b.slice(b.position(), headerLength).asReadOnlyBuffer();
        final ByteBuffer payload = b.slice(b.position() + headerLength, b.remaining() - headerLength)
                .asReadOnlyBuffer();
        dispatch.endpointFrame(
                new EndpointAddress(peer.link.peerRuntimeId(), peer.link.peerAddress(), from), to, header, payload);
    }

    private void readOneWayFailure(final TroupeInput in) {
        final String call;
        final RemoteFailure rf;
        try {
            call = codec.decoder().decode(in, String.class);
            rf = codec.decoder().decode(in, RemoteFailure.class);
        } catch (SerializationException e) {
            LOG.warn("Could not read a one-way call's failure from {}: {}", peer.describe(), e.getMessage());
            return;
        }
        OneWayFailures.report(call, rf.toThrowable(config, call));
    }

    /** Decodes the shared arguments once per object, so that no two objects share a mutable argument. */
    private void readCallMany(final TroupeInput in, final long first, final int end) {
        final int n = in.readInt();
        if (n <= 0 || n > in.remaining() / Long.BYTES) {
            peer.link.close("a call for " + n + " objects in a frame of " + in.remaining() + " bytes");
            return;
        }
        final long[] objectIds = new long[n];
        for (int i = 0; i < n; i++) {
            objectIds[i] = in.readLong();
        }
        final int method = in.readInt();
        final int argsAt = in.position();
        if ((long) n * (end - argsAt) > MAX_CALL_MANY_DECODE_BYTES) {
            peer.link.close("a call for " + n + " objects with " + (end - argsAt) + " bytes of arguments, to be read"
                    + " once for each: more than " + (MAX_CALL_MANY_DECODE_BYTES >> 20) + " MiB in all");
            return;
        }
        peer.meters.callsReceived(n);
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
                dispatch.call(peer, callId, objectIds[i], method, args, end - argsAt);
            }
        });
    }

    private void replyIfAsked(final long callId, final SerializationException e) {
        LOG.warn("Could not read a request from {}: {}", peer.describe(), e.getMessage());
        if (callId != 0) {
            peer.reply(callId, null, e);
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
            return new PushedFutures.Outcome(null, rf.toThrowable(config, where));
        } catch (SerializationException | ClassCastException e) {
            return new PushedFutures.Outcome(null, e);
        } catch (RuntimeException | Error e) {
            // No ok flag, a failure without its description, or an Error (this JVM's heap too small for the value,
            // a class that fails to initialise here): a reply's call is no longer pending, and would wait for ever
            // if this went up. The frame was read whole, so the link goes on.
            if (e instanceof Error) {
                LOG.warn("Could not read the outcome of {} sent by {}", where, peer.describe(), e);
            }
            return new PushedFutures.Outcome(
                    null,
                    new SerializationException(
                            "Could not read the outcome of " + where + " sent by " + peer.describe() + ": " + e, e));
        }
    }
}
