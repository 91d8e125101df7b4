package org.troupe.core.transport.tcp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.KDF;
import javax.crypto.spec.HKDFParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The tags of one direction of a link: a Wegman-Carter MAC, fast enough to tag every frame, large or small, without
 * moving the core's figures much (HMAC-SHA256 runs at about 1.7 GB/s and costs 200 ns for a small frame; this one
 * at about 15 GB/s and a few tens of nanoseconds, as its inner loop is one the JIT turns into vector instructions).
 *
 * <p>A frame's tag is {@code (H(frame) + pad(sequence)) mod 2^128}, its bytes little-endian. {@code H} is built as
 * UMAC's and VHASH's hashes are. The frame is cut into blocks of {@link #BLOCK_BYTES}, the last one padded with zeros
 * to a multiple of 32 bytes. A block of {@code 2n} 32-bit little-endian words {@code m} is hashed by NH twice, with
 * the key words shifted by two (Toeplitz): lane {@code t} is {@code sum over j < n of (m[j] + a[j + 2t]) *
 * (m[n + j] + b[j + 2t])}, sums of words modulo 2^32, products and their sum modulo 2^64. Each lane is
 * 2^-32-almost-universal for blocks of equal length, the two together 2^-64. The block's coefficient is lane 0 plus
 * lane 1 masked to 62 bits times 2^64; these coefficients, then the frame's length, are the coefficients of a
 * polynomial evaluated at the key {@code r} modulo the prime 2^127 - 1 (Horner: {@code h = (h + c) * r}), which adds
 * (blocks + 1) / 2^126, and the length, as a coefficient, tells frames of different lengths apart. A forged frame
 * passes with a probability of about 2^-62, once, as the link closes on it. The pad of frame {@code s} is AES-128 of
 * {@code s}, made 64 at a time: each pad is used once, so the tags tell nothing of {@code H}'s keys, and a frame
 * replayed, reordered or dropped meets another pad and fails.
 *
 * <p>The keys (NH's {@code a} and {@code b}, {@code r} and AES's) come from the direction's {@link #KEY_BYTES} by
 * HKDF-SHA256. Not thread-safe: each direction tags or checks under the link's lock for it.
 */
final class FrameMac {
    /** The key material of one direction, as the handshake derives it. */
    static final int KEY_BYTES = 32;

    static final int TAG_BYTES = 16;
    /** NH's block: the longer, the fewer polynomial steps, the more key to keep in cache. */
    static final int BLOCK_BYTES = 4096;
    /** Words of each of NH's keys, {@code a} and {@code b}: half a block's, and the shift of the second lane. */
    static final int NH_KEY_WORDS = BLOCK_BYTES / 8 + 2;
    /** Words in each half of a block. */
    private static final int BLOCK_HALF = BLOCK_BYTES / 8;

    private static final int PADS_PER_BATCH = 64;
    private static final byte[] INFO = "troupe frame mac v1".getBytes(StandardCharsets.US_ASCII);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long MASK_62 = (1L << 62) - 1;
    private static final long MASK_63 = Long.MAX_VALUE;
    private static final long MASK_32 = 0xffff_ffffL;

    private final int[] a;
    private final int[] b;
    private final long r0;
    private final long r1;
    private final Cipher padCipher;
    /** Counters in, pads out: {@link #PADS_PER_BATCH} blocks of 16 bytes. */
    private final byte[] counters = new byte[16 * PADS_PER_BATCH];

    private final byte[] pads = new byte[16 * PADS_PER_BATCH];
    private long next;
    /** The pad last taken, and the tag last sealed. */
    private long pad0;

    private long pad1;
    private long tag0;
    private long tag1;

    /** From the {@link #KEY_BYTES} of {@code keys} at {@code offset}. */
    FrameMac(final byte[] keys, final int offset) {
        this(expand(Arrays.copyOfRange(keys, offset, offset + KEY_BYTES)));
    }

    private FrameMac(final byte[] expanded) {
        this(
                words(expanded, 0),
                words(expanded, 4 * NH_KEY_WORDS),
                (long) LONGS.get(expanded, 8 * NH_KEY_WORDS),
                (long) LONGS.get(expanded, 8 * NH_KEY_WORDS + 8) & MASK_62,
                Arrays.copyOfRange(expanded, 8 * NH_KEY_WORDS + 16, 8 * NH_KEY_WORDS + 32));
        Arrays.fill(expanded, (byte) 0);
    }

    /** With the keys given: for tests that check the tags against the definition. */
    FrameMac(final int[] a, final int[] b, final long r0, final long r1, final byte[] aesKey) {
        if (a.length != NH_KEY_WORDS || b.length != NH_KEY_WORDS || r1 < 0 || r1 > MASK_62 || aesKey.length != 16) {
            throw new IllegalArgumentException("malformed frame keys");
        }
        this.a = a.clone();
        this.b = b.clone();
        this.r0 = r0;
        this.r1 = r1;
        try {
            padCipher = Cipher.getInstance("AES/ECB/NoPadding");
            padCipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(aesKey, "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is not available in this JVM", e);
        }
    }

    private static byte[] expand(final byte[] seed) {
        try {
            return KDF.getInstance("HKDF-SHA256")
                    .deriveData(
                            HKDFParameterSpec.expandOnly(new SecretKeySpec(seed, "HKDF"), INFO, 8 * NH_KEY_WORDS + 32));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HKDF-SHA256 is not available in this JVM", e);
        } finally {
            Arrays.fill(seed, (byte) 0);
        }
    }

    private static int[] words(final byte[] bytes, final int offset) {
        final int[] w = new int[NH_KEY_WORDS];
        for (int i = 0; i < w.length; i++) {
            w[i] = (int) INTS.get(bytes, offset + 4 * i);
        }
        return w;
    }

    /** How many frames this direction has started. */
    long sequence() {
        return next;
    }

    /** Sets {@code tagger} to the next frame of the sequence, which has {@code length} bytes. */
    void start(final Tagger tagger, final long length) {
        begin(tagger, length);
        takePad();
        tagger.pad0 = pad0;
        tagger.pad1 = pad1;
        tagger.sealed = true;
    }

    /**
     * Sets {@code tagger} to hash a frame of {@code length} bytes whose place in the sequence is not taken yet: a
     * sender hashes a frame before it takes the lock that orders its frames, and only {@link #seal}s it under it.
     */
    void begin(final Tagger tagger, final long length) {
        tagger.reset(this, length);
    }

    /**
     * The next place in the sequence, for a frame whose hash ({@link Tagger#digest}) is {@code h1:h0}: its tag,
     * read with {@link #tag0()} and {@link #tag1()} until the next call.
     */
    void seal(final long h0, final long h1) {
        takePad();
        tag0 = h0 + pad0;
        tag1 = h1 + pad1 + (Long.compareUnsigned(tag0, pad0) < 0 ? 1 : 0);
    }

    long tag0() {
        return tag0;
    }

    long tag1() {
        return tag1;
    }

    /** The pad of the next place in the sequence into {@link #pad0} and {@link #pad1}. */
    private void takePad() {
        final int slot = (int) (next % PADS_PER_BATCH);
        if (slot == 0) {
            refillPads();
        }
        next++;
        pad0 = (long) LONGS.get(pads, 16 * slot);
        pad1 = (long) LONGS.get(pads, 16 * slot + 8);
    }

    private void refillPads() {
        Arrays.fill(counters, (byte) 0);
        for (int i = 0; i < PADS_PER_BATCH; i++) {
            LONGS.set(counters, 16 * i, next + i);
        }
        try {
            padCipher.doFinal(counters, 0, counters.length, pads, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES failed", e);
        }
    }

    /**
     * One lane of NH over the first {@code 8 * half} bytes of {@code m}: a frame's last block. A loop of its own,
     * over an array, so that the JIT makes vector instructions of it (more than twice as fast as 64-bit NH, which
     * it cannot).
     */
    private static long lane(final byte[] m, final int[] a, final int[] b, final int shift, final int half) {
        final int second = 4 * half;
        long sum = 0;
        for (int j = 0; j < half; j++) {
            sum += (((int) INTS.get(m, 4 * j) + a[j + shift]) & MASK_32)
                    * (((int) INTS.get(m, second + 4 * j) + b[j + shift]) & MASK_32);
        }
        return sum;
    }

    /**
     * {@link #lane} over a whole block. Its own loop, with a constant count: the JIT unrolls and vectorizes a loop
     * by the trip count it profiled, and a lane shared with the short last blocks of small frames was left scalar
     * in a sender that also sent many small frames (hashing a 26 KB frame took 6.5 us instead of about 2).
     */
    private static long blockLane(final byte[] m, final int offset, final int[] a, final int[] b, final int shift) {
        final int second = offset + 4 * BLOCK_HALF;
        long sum = 0;
        for (int j = 0; j < BLOCK_HALF; j++) {
            sum += (((int) INTS.get(m, offset + 4 * j) + a[j + shift]) & MASK_32)
                    * (((int) INTS.get(m, second + 4 * j) + b[j + shift]) & MASK_32);
        }
        return sum;
    }

    /** {@link #blockLane} over native memory (a direct buffer's), which the JIT makes vector instructions of too. */
    private static long blockLane(
            final MemorySegment m, final long offset, final int[] a, final int[] b, final int shift) {
        final long second = offset + 4L * BLOCK_HALF;
        long sum = 0;
        for (int j = 0; j < BLOCK_HALF; j++) {
            sum += ((m.get(INT, offset + 4L * j) + a[j + shift]) & MASK_32)
                    * ((m.get(INT, second + 4L * j) + b[j + shift]) & MASK_32);
        }
        return sum;
    }

    /** The tag of one frame, fed in pieces of any size. */
    static final class Tagger {
        private FrameMac mac;
        private long pad0;
        private long pad1;
        /** Whether the frame has its place in the sequence (its pad), and whether h is its whole hash. */
        private boolean sealed;

        private boolean digested;
        private long length;
        private long fed;
        /** The polynomial so far, at most 2^127. */
        private long h0;

        private long h1;
        /** The start of a block whose end has not come yet. */
        private final byte[] block = new byte[BLOCK_BYTES];

        private int buffered;

        private void reset(final FrameMac mac, final long length) {
            this.mac = mac;
            this.sealed = false;
            this.digested = false;
            this.length = length;
            fed = 0;
            h0 = 0;
            h1 = 0;
            buffered = 0;
        }

        void update(final byte[] bytes, final int offset, final int count) {
            feed(count);
            int at = offset;
            final int end = offset + count;
            at = fill(bytes, null, at, end);
            for (; end - at >= BLOCK_BYTES; at += BLOCK_BYTES) {
                absorbBlock(bytes, at);
            }
            fill(bytes, null, at, end);
        }

        /** {@code count} bytes of {@code buffer} from {@code index}; its position does not move. */
        void update(final ByteBuffer buffer, final int index, final int count) {
            if (buffer.hasArray()) {
                update(buffer.array(), buffer.arrayOffset() + index, count);
                return;
            }
            feed(count);
            int at = index;
            final int end = index + count;
            at = fill(null, buffer, at, end);
            if (end - at >= BLOCK_BYTES) {
                final MemorySegment whole =
                        MemorySegment.ofBuffer(buffer.duplicate().clear());
                for (; end - at >= BLOCK_BYTES; at += BLOCK_BYTES) {
                    absorbBlock(whole, at);
                }
            }
            fill(null, buffer, at, end);
        }

        private void feed(final int count) {
            if (mac == null) {
                throw new IllegalStateException("no frame started");
            }
            fed += count;
        }

        /**
         * Adds to the block started ({@code from} {@code bytes}, or else {@code buffer}), hashing it once full;
         * returns where the bytes not taken start. Takes nothing when no block is started: whole blocks are hashed
         * where they are, and what is left after them starts one.
         */
        private int fill(final byte[] bytes, final ByteBuffer buffer, final int from, final int end) {
            final boolean rest = end - from < BLOCK_BYTES;
            if (buffered == 0 && !rest) {
                return from;
            }
            final int take = Math.min(BLOCK_BYTES - buffered, end - from);
            if (bytes != null) {
                System.arraycopy(bytes, from, block, buffered, take);
            } else {
                buffer.get(from, block, buffered, take);
            }
            buffered += take;
            if (buffered == BLOCK_BYTES) {
                buffered = 0;
                absorbBlock(block, 0);
            }
            return from + take;
        }

        private void absorbBlock(final byte[] bytes, final int offset) {
            absorb(blockLane(bytes, offset, mac.a, mac.b, 0), blockLane(bytes, offset, mac.a, mac.b, 2) & MASK_62);
        }

        /** The last block of a frame, in {@link #block}: {@code blockBytes}, a multiple of 32. */
        private void absorbLastBlock(final int blockBytes) {
            final int half = blockBytes / 8;
            absorb(lane(block, mac.a, mac.b, 0, half), lane(block, mac.a, mac.b, 2, half) & MASK_62);
        }

        private void absorbBlock(final MemorySegment bytes, final long offset) {
            absorb(blockLane(bytes, offset, mac.a, mac.b, 0), blockLane(bytes, offset, mac.a, mac.b, 2) & MASK_62);
        }

        /** {@code h = (h + c) * r mod (2^127 - 1)}, kept below 2^127 + 1. */
        private void absorb(final long c0, final long c1) {
            final long a0 = h0 + c0;
            final long a1 = h1 + c1 + (Long.compareUnsigned(a0, c0) < 0 ? 1 : 0);
            // a < 2^128 and r < 2^126: the product, w3..w0, is below 2^254.
            final long r0 = mac.r0;
            final long r1 = mac.r1;
            final long w0 = a0 * r0;
            final long p01 = a0 * r1;
            final long p10 = a1 * r0;
            long w1 = Math.unsignedMultiplyHigh(a0, r0) + p01;
            long carry = Long.compareUnsigned(w1, p01) < 0 ? 1 : 0;
            w1 += p10;
            carry += Long.compareUnsigned(w1, p10) < 0 ? 1 : 0;
            final long p10High = Math.unsignedMultiplyHigh(a1, r0);
            final long p11 = a1 * r1;
            long w2 = Math.unsignedMultiplyHigh(a0, r1) + carry + p10High; // the first term is below 2^62
            long carry2 = Long.compareUnsigned(w2, p10High) < 0 ? 1 : 0;
            w2 += p11;
            carry2 += Long.compareUnsigned(w2, p11) < 0 ? 1 : 0;
            final long w3 = Math.unsignedMultiplyHigh(a1, r1) + carry2;
            // 2^127 = 1 (mod p): the bits from 127 up are added to those below.
            final long high0 = (w1 >>> 63) | (w2 << 1);
            final long high1 = (w2 >>> 63) | (w3 << 1);
            final long s0 = w0 + high0;
            final long s1 = (w1 & MASK_63) + high1 + (Long.compareUnsigned(s0, high0) < 0 ? 1 : 0);
            h0 = s0 + (s1 >>> 63);
            h1 = (s1 & MASK_63) + (Long.compareUnsigned(h0, s0) < 0 ? 1 : 0);
        }

        /** Writes the tag of the frame fed at {@code index} of {@code out}; its position does not move. */
        void finish(final ByteBuffer out, final int index) {
            tag();
            out.putLong(index, littleEndian(out, h0)).putLong(index + 8, littleEndian(out, h1));
        }

        /** The hash of the frame fed, without its place in the sequence: low and high words, after {@link #digest}. */
        long hash0() {
            return h0;
        }

        long hash1() {
            return h1;
        }

        /** {@code v} such that {@code out}, in its own byte order, puts it little-endian. */
        private static long littleEndian(final ByteBuffer out, final long v) {
            return out.order() == ByteOrder.LITTLE_ENDIAN ? v : Long.reverseBytes(v);
        }

        /** Whether the {@link #TAG_BYTES} at {@code offset} are the tag of the frame fed (in constant time). */
        boolean matches(final byte[] bytes, final int offset) {
            tag();
            return (((long) LONGS.get(bytes, offset) ^ h0) | ((long) LONGS.get(bytes, offset + 8) ^ h1)) == 0;
        }

        /** Ends the frame's hash: leaves it, fully reduced, in h (the costly part of a tag, done once). */
        void digest() {
            if (mac == null) {
                throw new IllegalStateException("no frame started");
            }
            if (digested) {
                return;
            }
            if (fed != length) {
                throw new IllegalStateException("a frame of " + length + " bytes was started, " + fed + " were fed");
            }
            if (buffered > 0) {
                final int padded = (buffered + 31) & ~31;
                Arrays.fill(block, buffered, padded, (byte) 0);
                absorbLastBlock(padded);
                buffered = 0;
            }
            absorb(length, 0);
            // Fully reduced: h is at most 2^127, so h + 1 reaches 2^127 only when h is p or 2^127.
            final long t0 = h0 + 1;
            final long t1 = h1 + (t0 == 0 ? 1 : 0);
            if (t1 < 0) {
                h0 = t0;
                h1 = t1 & MASK_63;
            }
            digested = true;
        }

        /** Ends the frame: leaves its tag in h. */
        private void tag() {
            digest();
            if (!sealed) {
                throw new IllegalStateException("the frame has no place in the sequence yet");
            }
            final long tag0 = h0 + pad0;
            h1 = h1 + pad1 + (Long.compareUnsigned(tag0, pad0) < 0 ? 1 : 0);
            h0 = tag0;
            mac = null; // one tag per frame started
        }
    }
}
