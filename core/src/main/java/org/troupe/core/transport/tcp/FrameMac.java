package org.troupe.core.transport.tcp;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The tags of one direction of a link: HMAC-SHA-256 (RFC 2104) over the frame's place in the sequence (eight bytes,
 * big-endian) and then the frame, as SSH's transport tags its packets (RFC 4253, section 6.4), truncated to its first
 * 128 bits as IPsec's HMAC-SHA-256-128 is (RFC 4868). A standard MAC from the JDK's own provider, not one of ours:
 * its SHA-256 runs on the processor's SHA instructions where it has them. A frame replayed, reordered or dropped is
 * checked against another sequence number and fails; the link closes on the first that does.
 *
 * <p>Keyed by the direction's {@link #KEY_BYTES}, as the handshake derives them. Not thread-safe: a direction's
 * frames take their places in the sequence under the link's lock for it, and each {@link Tagger} is used by one
 * thread at a time.
 */
final class FrameMac {
    /** The key of one direction, as the handshake derives it: SHA-256's length, as RFC 2104 advises. */
    static final int KEY_BYTES = 32;

    static final int TAG_BYTES = 16;
    /** What a receiver feeds of a large frame as it arrives, at least: so that little is left to hash at its end. */
    static final int BLOCK_BYTES = 4096;

    static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;
    /** The place in the sequence of the next frame started. */
    private long next;

    /** From the {@link #KEY_BYTES} of {@code keys} at {@code offset}. */
    FrameMac(final byte[] keys, final int offset) {
        key = new SecretKeySpec(keys, offset, KEY_BYTES, ALGORITHM);
    }

    /** How many frames this direction has started. */
    long sequence() {
        return next;
    }

    /** A tagger of this direction's frames: one per thread that tags or checks them. */
    Tagger tagger() {
        return new Tagger(key);
    }

    /** Sets {@code tagger} to the next frame of the sequence, which has {@code length} bytes. */
    void start(final Tagger tagger, final long length) {
        tagger.start(next++, length);
    }

    /**
     * The frame last started will not be sent, and nothing of it was: the next one takes its place. Only for the
     * sender that started it, before any other frame starts.
     */
    void giveBack() {
        next--;
    }

    /** The tag of one frame, fed in pieces of any size. */
    static final class Tagger {
        private final Mac mac;
        private final byte[] digest = new byte[32];
        private long length = -1;
        private long fed;

        private Tagger(final SecretKeySpec key) {
            try {
                mac = Mac.getInstance(ALGORITHM);
                mac.init(key);
            } catch (InvalidKeyException e) {
                throw new IllegalArgumentException("malformed frame key", e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
            }
        }

        private void start(final long sequence, final long length) {
            mac.reset();
            for (int shift = 56; shift >= 0; shift -= 8) {
                mac.update((byte) (sequence >>> shift));
            }
            this.length = length;
            fed = 0;
        }

        void update(final byte[] bytes, final int offset, final int count) {
            feed(count);
            mac.update(bytes, offset, count);
        }

        /** {@code count} bytes of {@code buffer} from {@code index}; its position does not move. */
        void update(final ByteBuffer buffer, final int index, final int count) {
            feed(count);
            mac.update(buffer.slice(index, count));
        }

        private void feed(final int count) {
            if (length < 0) {
                throw new IllegalStateException("no frame started");
            }
            fed += count;
        }

        /** Writes the tag of the frame fed at {@code index} of {@code out}; its position does not move. */
        void finish(final ByteBuffer out, final int index) {
            out.put(index, tag(), 0, TAG_BYTES);
        }

        /** Writes the tag of the frame fed at {@code offset} of {@code out}. */
        void finish(final byte[] out, final int offset) {
            System.arraycopy(tag(), 0, out, offset, TAG_BYTES);
        }

        /** Whether the {@link #TAG_BYTES} at {@code offset} are the tag of the frame fed (in constant time). */
        boolean matches(final byte[] bytes, final int offset) {
            final byte[] tag = tag();
            int differ = 0;
            for (int i = 0; i < TAG_BYTES; i++) {
                differ |= tag[i] ^ bytes[offset + i];
            }
            return differ == 0;
        }

        /** Ends the frame: its whole HMAC, of which the tag is the start. */
        private byte[] tag() {
            if (length < 0) {
                throw new IllegalStateException("no frame started");
            }
            if (fed != length) {
                throw new IllegalStateException("a frame of " + length + " bytes was started, " + fed + " were fed");
            }
            length = -1; // one tag per frame started
            try {
                mac.doFinal(digest, 0);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(ALGORITHM + " failed", e);
            }
            return digest;
        }
    }
}
