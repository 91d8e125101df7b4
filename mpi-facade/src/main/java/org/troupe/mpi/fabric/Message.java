package org.troupe.mpi.fabric;

/**
 * A message on its way to a rank: its envelope, and its data. An eager message carries a copy and its send is
 * already complete; a rendezvous message points at the sender's own buffer, which the receiver copies from at
 * the match, completing {@link #send} then.
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

    public Message(final int context, final int source, final int tag, final Kind kind, final Object data,
                   final int offset, final int count, final Operation send, final Runnable released) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.kind = kind;
        this.data = data;
        this.offset = offset;
        this.count = count;
        this.send = send;
        this.released = released;
    }

    boolean matches(final int context, final int source, final int tag) {
        return this.context == context && (source == Fabric.ANY_SOURCE || this.source == source)
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
        // Objects travel encoded, in bytes no one else holds: they need no copy.
        final Object own = kind == Kind.OBJECT ? data : kind.copyOf(data, offset, count);
        final Message copy = new Message(context, source, tag, kind, own, kind == Kind.OBJECT ? offset : 0, count,
            null, released);
        if (send != null) {
            send.complete(source, tag, count);
        }
        return copy;
    }

    void release() {
        if (released != null) {
            released.run();
        }
    }
}
