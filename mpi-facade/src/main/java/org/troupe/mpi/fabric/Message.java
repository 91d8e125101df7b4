package org.troupe.mpi.fabric;

import java.nio.ByteBuffer;

/**
 * A message on its way to a rank: its envelope, and its data. An eager message carries a copy and its send is
 * already complete; a rendezvous message points at the sender's own buffer, which the receiver copies from at
 * the match, completing {@link #send} then. A message from another JVM carries its elements as little-endian bytes
 * (a {@link java.nio.ByteBuffer}), or, for a large one, only its envelope and a {@link Rendezvous} that fetches the
 * data into the receive that matches it.
 */
public final class Message {
    final int context;
    final int source;
    final int tag;
    final Kind kind;
    final Object data;
    final int offset;
    final int count;
    /** The pending send of a rendezvous message (null for an eager one). */
    final Operation send;
    /** Run once the message is matched or cancelled (a buffered send's space is released), or null. */
    final Runnable released;
    /** For a large message from another JVM: fetches its data into the matching receive (its data is null). */
    final Rendezvous rendezvous;
    /** Run once a receive of this JVM takes it, or it is cancelled here: its eager credit goes back; or null. */
    private Runnable consumed;
    /**
     * The world rank that sent it from another JVM, as the link it came on proves; -1 for a message of this JVM.
     * Its {@link #source}, a rank of a communicator, must name that rank ({@link Receive#from}).
     */
    final int sender;

    /** A large message waiting in another JVM: told which receive matched it, or that none will take it. */
    public interface Rendezvous {
        /** Asks the sender for the data, which then completes {@code receive}. */
        void matched(Receive receive, int source, int tag, int count);

        /** The receive that matched failed (too small, another type): the sender's send ends without data. */
        void refused();
    }

    public Message(
            final int context,
            final int source,
            final int tag,
            final Kind kind,
            final Object data,
            final int offset,
            final int count,
            final Operation send,
            final Runnable released) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.kind = kind;
        this.data = data;
        this.offset = offset;
        this.count = count;
        this.send = send;
        this.released = released;
        this.rendezvous = null;
        this.sender = -1;
    }

    /** A message from world rank {@code sender}'s JVM: its data as bytes (valid during the handler only), or a rendezvous. */
    Message(
            final int sender,
            final int context,
            final int source,
            final int tag,
            final Kind kind,
            final ByteBuffer bytes,
            final int count,
            final Rendezvous rendezvous) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.kind = kind;
        this.data = bytes;
        this.offset = 0;
        this.count = count;
        this.send = null;
        this.released = null;
        this.rendezvous = rendezvous;
        this.sender = sender;
    }

    /** The bytes of its data (for objects: of their encoding). */
    long bytes() {
        return (long) count * Math.max(1, kind.bytes());
    }

    boolean matches(final int context, final int source, final int tag) {
        return this.context == context
                && (source == Fabric.ANY_SOURCE || this.source == source)
                && (tag == Fabric.ANY_TAG || this.tag == tag);
    }

    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    public Kind kind() {
        return kind;
    }

    public int count() {
        return count;
    }

    /** A copy that owns its data, to wait for a receive; the send is complete from now on. */
    Message detached() {
        if (data instanceof ByteBuffer b) { // from another JVM: the bytes are only lent by the handler
            return new Message(sender, context, source, tag, kind, Wire.own(b), count, null).onConsumed(consumed);
        }
        // Objects travel encoded, in bytes no one else holds: they need no copy.
        final Object own = kind == Kind.OBJECT ? data : kind.copyOf(data, offset, count);
        final Message copy = new Message(
                        context, source, tag, kind, own, kind == Kind.OBJECT ? offset : 0, count, null, released)
                .onConsumed(consumed);
        if (send != null) {
            send.complete(source, tag, count);
        }
        return copy;
    }

    /** What to run once a receive of this JVM takes it (see {@link Fabric#takeEagerCredit}). Before it is sent. */
    public Message onConsumed(final Runnable action) {
        this.consumed = action;
        return this;
    }

    /** A receive took it, or it was cancelled: what it held of its receiver's memory is free. */
    void consumed() {
        if (consumed != null) {
            consumed.run();
        }
    }

    void release() {
        if (released != null) {
            released.run();
        }
    }

    /**
     * Whether it comes from the rank it names as its source: {@code sources} are the world ranks of the ranks that
     * may send to the receive, by their rank in its communicator (null: not checked). A message of another JVM that
     * names a rank other than the one whose link it came on was forged by a runtime of the job.
     */
    boolean isFromItsSource(final int[] sources) {
        return sender < 0 || sources == null || source >= 0 && source < sources.length && sources[source] == sender;
    }

    /** A forged message, which no receive takes: its eager credit goes back, a rendezvous sender is refused. */
    void discard() {
        if (rendezvous != null) {
            rendezvous.refused();
        }
        consumed();
        release();
    }
}
