package org.troupe.core.transport.shm;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The two frames that move a TCP link into shared memory, exchanged on the link right after its handshake when
 * both sides offered it there: the connecting side's {@link Offer}, the accepting side's {@link Answer}. Nothing
 * else crosses the link before them; after an accepted one, only doorbells do (any frame is one).
 */
sealed interface Upgrade {
    byte OFFER = 'O';
    byte ANSWER = 'A';
    /** The byte a doorbell carries; its content does not matter. */
    byte DOORBELL = 'D';

    /**
     * The connecting side's proposal.
     *
     * @param host the connecting side's {@link SameHost#identity()}
     * @param file the ring file it made in its ring directory, or empty if it could not make one
     * @param capacity the bytes of each ring of the file
     */
    record Offer(String host, String file, int capacity) implements Upgrade {}

    /**
     * The accepting side's answer.
     *
     * @param accepted whether it mapped the file: the link's frames go through the rings from now on
     * @param reason why not, when it did not (another host, no such file, ...)
     */
    record Answer(boolean accepted, String reason) implements Upgrade {}

    default byte[] encode() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            switch (this) {
                case Offer o -> {
                    out.writeByte(OFFER);
                    out.writeUTF(o.host());
                    out.writeUTF(o.file());
                    out.writeInt(o.capacity());
                }
                case Answer a -> {
                    out.writeByte(ANSWER);
                    out.writeBoolean(a.accepted());
                    out.writeUTF(a.reason());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * The upgrade frame in {@code frame[offset, offset + length)}.
     *
     * @throws IllegalArgumentException if it is not one (the peer speaks another protocol)
     */
    static Upgrade decode(final byte[] frame, final int offset, final int length) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(frame, offset, length))) {
            final byte kind = in.readByte();
            final Upgrade u = switch (kind) {
                case OFFER -> new Offer(in.readUTF(), in.readUTF(), in.readInt());
                case ANSWER -> new Answer(in.readBoolean(), in.readUTF());
                default -> throw new IllegalArgumentException("not a shared-memory upgrade frame: kind " + kind);
            };
            if (in.available() > 0) {
                throw new IllegalArgumentException("an upgrade frame with " + in.available() + " bytes too many");
            }
            return u;
        } catch (IOException e) {
            throw new IllegalArgumentException("a truncated shared-memory upgrade frame", e);
        }
    }
}
