package org.troupe.mpi.fabric;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The layout of the frames that {@link EndpointFabric} sends between the ranks' JVMs: their types, and their header,
 * little-endian, ahead of the payload that the endpoint carries apart:
 *
 * <pre>
 * | type:byte | context:int | source:int | tag:int | kind:byte | count:int | id1:long | id2:long |
 * </pre>
 *
 * <p>Stateless: any thread encodes and decodes.
 */
final class FabricFrame {
    static final byte EAGER = 1;
    static final byte RTS = 2;
    static final byte CTS = 3;
    static final byte DATA = 4;
    static final byte REFUSED = 5;
    /** A rank has finished its program: its JVM going away later is no failure. */
    static final byte BYE = 6;
    /** A rank called Abort: the job ends (the reason in the payload). */
    static final byte ABORT = 7;
    /** The sender could not send a rendezvous message's data: the receive fails (the reason in the payload). */
    static final byte FAILED = 8;
    /** The sender withdraws a rendezvous message no receive has matched yet. */
    static final byte CANCEL = 9;
    /** The receiver has withdrawn it: the send completes as cancelled. */
    static final byte CANCELLED = 10;
    /** The receiver took eager messages of the sender's worth the credit in id1 (see Fabric.takeEagerCredit). */
    static final byte CREDIT = 11;
    /** The sender's JVM opened its link to the receiver's before the program ran (see EndpointFabric.linkAhead). */
    static final byte LINKED = 12;
    /** Header: type, context, source, tag, kind, count, two ids; little-endian. */
    static final int HEADER_BYTES = 1 + 4 + 4 + 4 + 1 + 4 + 8 + 8;
    /** The kinds by their number on the wire (values() would copy the array at every frame). */
    private static final Kind[] KINDS = Kind.values();

    private FabricFrame() {}

    /** A frame's header, ready to be read. */
    static ByteBuffer header(
            final byte type,
            final int context,
            final int source,
            final int tag,
            final Kind kind,
            final int count,
            final long id1,
            final long id2) {
        final ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        h.put(type)
                .putInt(context)
                .putInt(source)
                .putInt(tag)
                .put((byte) kind.ordinal())
                .putInt(count)
                .putLong(id1)
                .putLong(id2)
                .flip();
        return h;
    }

    /** The kind numbered {@code index} on the wire, or null if none is. */
    static Kind kind(final int index) {
        return index >= 0 && index < KINDS.length ? KINDS[index] : null;
    }

    /** A payload's text (a reason), leaving the payload as it was. */
    static String text(final ByteBuffer payload) {
        return StandardCharsets.UTF_8.decode(payload.duplicate()).toString();
    }
}
