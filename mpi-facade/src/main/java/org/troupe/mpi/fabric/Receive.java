package org.troupe.mpi.fabric;

import java.nio.ByteBuffer;

/** A posted receive: what it matches, and the buffer a matching message is copied into. */
public final class Receive {
    final int context;
    final int source;
    final int tag;
    final Kind kind;
    final Object buffer;
    final int offset;
    final int capacity;
    final Operation done = new Operation();
    /** The world ranks of the ranks that may send to it, by their rank in its communicator; null if not checked. */
    int[] sources;
    /** Of a rendezvous from another JVM: the elements matched, and those come so far (see {@link #arrived}). */
    private int expected;

    private int arrivedCount;
    /** For objects: the encoded message, for the receiving rank to decode. */
    private volatile byte[] encoded;

    /**
     * @param source a rank of the communicator or {@link Fabric#ANY_SOURCE}
     * @param tag a tag or {@link Fabric#ANY_TAG}
     * @param capacity the elements the buffer takes from {@code offset}
     */
    public Receive(
            final int context,
            final int source,
            final int tag,
            final Kind kind,
            final Object buffer,
            final int offset,
            final int capacity) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.kind = kind;
        this.buffer = buffer;
        this.offset = offset;
        this.capacity = capacity;
    }

    /**
     * Takes messages of other JVMs only from the ranks they name: {@code sources} are the world ranks of the
     * communicator's senders, by rank. Before it is posted.
     */
    public Receive from(final int[] sources) {
        this.sources = sources;
        return this;
    }

    public Operation operation() {
        return done;
    }

    /** The encoded objects a message of {@link Kind#OBJECT} brought, once complete. */
    public byte[] encoded() {
        return encoded;
    }

    /**
     * Takes the message: copies its data into the buffer and completes both ends; or fails the receive (the
     * message is then consumed, nothing is written) when it does not fit or is of another kind.
     */
    void take(final Message m) {
        if (m.kind != kind) {
            failBoth(
                    m,
                    "a message of " + m.count + " " + m.kind + " elements from rank " + m.source + " (tag "
                            + m.tag + ") matched a receive of " + kind
                            + " elements: sender and receiver must use the same"
                            + " datatype");
        } else if (m.count > capacity) {
            failBoth(
                    m,
                    "message truncated: " + m.count + " " + kind + " elements from rank " + m.source + " (tag " + m.tag
                            + ") do not fit in a receive of " + capacity + "; nothing was written");
        } else if (m.rendezvous != null) {
            m.rendezvous.matched(this, m.source, m.tag, m.count); // completes when the data comes
        } else {
            fill(m.data, m.offset, m.count);
            done.complete(m.source, m.tag, m.count);
            if (m.send != null) {
                m.send.complete(m.source, m.tag, m.count);
            }
        }
        m.consumed();
        m.release();
    }

    /**
     * A piece of a rendezvous' data from another JVM, {@code count} elements from element {@code at}: fills that part
     * of the buffer; completes the receive and returns true once all of the message matched has come. Pieces come in
     * order, on threads that take the link's reading in turn.
     */
    boolean arrived(final ByteBuffer bytes, final int at, final int source, final int tag, final int count) {
        if (kind == Kind.OBJECT) {
            encoded = Wire.bytes(bytes);
        } else {
            Wire.copyInto(bytes, kind, buffer, offset + at, count);
        }
        arrivedCount += count;
        if (arrivedCount < expected) {
            return false;
        }
        done.complete(source, tag, expected);
        return true;
    }

    int expected() {
        return expected;
    }

    int arrivedSoFar() {
        return arrivedCount;
    }

    /** A rendezvous from another JVM matched this receive: {@code count} elements will come. */
    void expect(final int count) {
        expected = count;
    }

    /** Fails the receive: the job ended before its data came, say. */
    void fail(final String why) {
        done.fail(why);
    }

    private void fill(final Object data, final int from, final int count) {
        if (kind == Kind.OBJECT) {
            encoded = data instanceof ByteBuffer b ? Wire.bytes(b) : (byte[]) data;
        } else if (data instanceof ByteBuffer b) {
            Wire.copyInto(b, kind, buffer, offset, count);
        } else {
            System.arraycopy(data, from, buffer, offset, count);
        }
    }

    private void failBoth(final Message m, final String why) {
        done.fail(why);
        if (m.send != null) {
            m.send.complete(m.source, m.tag, m.count); // its data left the sender's hands: the send is over
        }
        if (m.rendezvous != null) {
            m.rendezvous.refused();
        }
    }
}
