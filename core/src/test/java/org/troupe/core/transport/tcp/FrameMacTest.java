package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The frame tags against their definition, computed here with BigInteger from the same keys (two lanes of NH over
 * 32-bit words per block, the second masked to 62 bits; a polynomial in r modulo 2^127 - 1 over the blocks' hashes
 * and the length; plus AES-128 of the sequence number modulo 2^128), whatever pieces the frame is fed in, from arrays
 * or direct buffers; and a frame altered, moved to another place in the sequence, or of another length, refused.
 */
class FrameMacTest {
    private static final BigInteger P = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    private static final BigInteger TWO_128 = BigInteger.ONE.shiftLeft(128);
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    private final Random random = new Random(42);
    private final int[] a = random.ints(FrameMac.NH_KEY_WORDS).toArray();
    private final int[] b = random.ints(FrameMac.NH_KEY_WORDS).toArray();
    /** All ones: every sum and product carries as far as it can. */
    private final int[] allOnesKey = new int[FrameMac.NH_KEY_WORDS];

    private final long r0 = random.nextLong();
    private final long r1 = random.nextLong() >>> 2;
    private final byte[] aesKey = bytes(16);

    FrameMacTest() {
        Arrays.fill(allOnesKey, -1);
    }

    private byte[] bytes(final int n) {
        final byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static BigInteger unsigned(final long v) {
        return new BigInteger(Long.toUnsignedString(v));
    }

    private static BigInteger unsigned(final int v) {
        return BigInteger.valueOf(Integer.toUnsignedLong(v));
    }

    /** The tag of frame {@code sequence}, by the definition. */
    private static byte[] expected(
            final int[] a,
            final int[] b,
            final long r0,
            final long r1,
            final byte[] aesKey,
            final long sequence,
            final byte[] frame)
            throws Exception {
        final BigInteger r = unsigned(r1).shiftLeft(64).or(unsigned(r0));
        final BigInteger two32 = BigInteger.ONE.shiftLeft(32);
        BigInteger h = BigInteger.ZERO;
        for (int start = 0; start < frame.length; start += FrameMac.BLOCK_BYTES) {
            final int blockBytes = Math.min(FrameMac.BLOCK_BYTES, frame.length - start);
            final ByteBuffer block =
                    ByteBuffer.allocate((blockBytes + 31) & ~31).order(ByteOrder.LITTLE_ENDIAN);
            block.put(0, frame, start, blockBytes);
            final int half = block.capacity() / 8;
            final BigInteger[] lanes = new BigInteger[2];
            for (int lane = 0; lane < 2; lane++) {
                BigInteger sum = BigInteger.ZERO;
                for (int j = 0; j < half; j++) {
                    final BigInteger x = unsigned(block.getInt(4 * j))
                            .add(unsigned(a[j + 2 * lane]))
                            .mod(two32);
                    final BigInteger y = unsigned(block.getInt(4 * (half + j)))
                            .add(unsigned(b[j + 2 * lane]))
                            .mod(two32);
                    sum = sum.add(x.multiply(y)).mod(TWO_64);
                }
                lanes[lane] = sum;
            }
            final BigInteger c =
                    lanes[1].mod(BigInteger.ONE.shiftLeft(62)).shiftLeft(64).add(lanes[0]);
            h = h.add(c).multiply(r).mod(P);
        }
        h = h.add(BigInteger.valueOf(frame.length)).multiply(r).mod(P);
        final Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(aesKey, "AES"));
        final byte[] counter = ByteBuffer.allocate(16)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(sequence)
                .array();
        final ByteBuffer pad = ByteBuffer.wrap(aes.doFinal(counter)).order(ByteOrder.LITTLE_ENDIAN);
        final BigInteger tag = h.add(unsigned(pad.getLong(8)).shiftLeft(64).or(unsigned(pad.getLong(0))))
                .mod(TWO_128);
        return ByteBuffer.allocate(16)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(tag.longValue())
                .putLong(tag.shiftRight(64).longValue())
                .array();
    }

    private static byte[] tag(final FrameMac mac, final byte[] frame, final int... cuts) {
        final FrameMac.Tagger tagger = new FrameMac.Tagger();
        mac.start(tagger, frame.length);
        int at = 0;
        for (final int cut : cuts) {
            tagger.update(frame, at, cut - at);
            at = cut;
        }
        tagger.update(frame, at, frame.length - at);
        final ByteBuffer tag = ByteBuffer.allocate(FrameMac.TAG_BYTES + 3);
        tagger.finish(tag, 3);
        return Arrays.copyOfRange(tag.array(), 3, tag.capacity());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 5, 15, 16, 17, 31, 100, 4095, 4096, 4097, 8192, 12_345, 70_000})
    void shouldTagAsDefinedWhateverTheLength(final int length) throws Exception {
        final FrameMac mac = new FrameMac(a, b, r0, r1, aesKey);
        for (long sequence = 0; sequence < 3; sequence++) {
            final byte[] frame = bytes(length);
            assertArrayEquals(
                    expected(a, b, r0, r1, aesKey, sequence, frame),
                    tag(mac, frame),
                    "frame " + sequence + " of " + length + " bytes");
        }
    }

    /** Words, keys and r of all ones: every sum and product carries as far as it can. */
    @Test
    void shouldCarryRightWhereEveryBitIsSet() throws Exception {
        final long allOnesR0 = -1L;
        final long allOnesR1 = (1L << 62) - 1;
        final FrameMac mac = new FrameMac(allOnesKey, allOnesKey, allOnesR0, allOnesR1, aesKey);
        final byte[] frame = new byte[3 * FrameMac.BLOCK_BYTES + 48];
        Arrays.fill(frame, (byte) -1);
        assertArrayEquals(expected(allOnesKey, allOnesKey, allOnesR0, allOnesR1, aesKey, 0, frame), tag(mac, frame));
        Arrays.fill(frame, (byte) 0);
        assertArrayEquals(expected(allOnesKey, allOnesKey, allOnesR0, allOnesR1, aesKey, 1, frame), tag(mac, frame));
    }

    @Test
    void shouldGiveTheSameTagWhateverPiecesTheFrameComesIn() {
        final byte[] frame = bytes(3 * FrameMac.BLOCK_BYTES + 77);
        final byte[] whole = tag(new FrameMac(a, b, r0, r1, aesKey), frame);
        for (int trial = 0; trial < 50; trial++) {
            final int[] cuts = random.ints(1 + random.nextInt(12), 0, frame.length + 1)
                    .sorted()
                    .toArray();
            assertArrayEquals(whole, tag(new FrameMac(a, b, r0, r1, aesKey), frame, cuts), Arrays.toString(cuts));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4096, 5000})
    void shouldTagFromADirectBufferAsFromAnArray(final int cut) {
        final byte[] frame = bytes(9000);
        final ByteBuffer direct = ByteBuffer.allocateDirect(frame.length + 20);
        direct.position(20).put(frame).position(7); // position and limit are not the frame's bounds
        final FrameMac mac = new FrameMac(a, b, r0, r1, aesKey);
        final FrameMac.Tagger tagger = new FrameMac.Tagger();
        mac.start(tagger, frame.length);
        tagger.update(direct, 20, cut);
        tagger.update(direct, 20 + cut, frame.length - cut);
        final ByteBuffer tag = ByteBuffer.allocateDirect(FrameMac.TAG_BYTES);
        tagger.finish(tag, 0);
        final byte[] fromDirect = new byte[FrameMac.TAG_BYTES];
        tag.get(0, fromDirect);
        assertArrayEquals(tag(new FrameMac(a, b, r0, r1, aesKey), frame), fromDirect);
        assertEquals(7, direct.position(), "the buffer's position did not move");
    }

    /** The receiving side, fed the same frames in order, accepts each; any change is refused. */
    @Test
    void shouldRefuseAFrameAlteredReplayedOrOfAnotherLength() {
        final byte[] keys = bytes(FrameMac.KEY_BYTES);
        final FrameMac sending = new FrameMac(keys, 0);
        final byte[] first = bytes(200);
        final byte[] firstTag = tag(sending, first);
        final byte[] second = bytes(200);
        final byte[] secondTag = tag(sending, second);

        assertTrue(checks(new FrameMac(keys, 0), first, firstTag), "in place, unaltered");
        final FrameMac receiving = new FrameMac(keys, 0);
        assertTrue(checks(receiving, first, firstTag));
        assertFalse(checks(receiving, first, firstTag), "the first frame replayed in the second's place");
        assertFalse(checks(new FrameMac(keys, 0), second, secondTag), "the second frame in the first's place");
        for (int bit = 0; bit < 8 * first.length; bit += 37) {
            final byte[] altered = first.clone();
            altered[bit / 8] ^= (byte) (1 << (bit % 8));
            assertFalse(checks(new FrameMac(keys, 0), altered, firstTag), "bit " + bit + " flipped");
        }
        final byte[] longer = Arrays.copyOf(first, first.length + 1); // zero padding must not hide a byte
        assertFalse(checks(new FrameMac(keys, 0), longer, firstTag), "a zero byte appended");
        final byte[] otherTag = firstTag.clone();
        otherTag[15] ^= 1;
        assertFalse(checks(new FrameMac(keys, 0), first, otherTag), "the tag altered");
        final byte[] otherKeys = keys.clone();
        otherKeys[0] ^= 1;
        assertFalse(checks(new FrameMac(otherKeys, 0), first, firstTag), "another key");
    }

    private static boolean checks(final FrameMac receiving, final byte[] frame, final byte[] tag) {
        final FrameMac.Tagger tagger = new FrameMac.Tagger();
        receiving.start(tagger, frame.length);
        tagger.update(frame, 0, frame.length);
        final byte[] withTag = new byte[5 + tag.length];
        System.arraycopy(tag, 0, withTag, 5, tag.length);
        return tagger.matches(withTag, 5);
    }

    /** A sender hashes a frame first and takes its place in the sequence after: the same tag as in one go. */
    @Test
    void shouldSealAFrameHashedBeforeItsPlaceInTheSequenceWasTaken() throws Exception {
        final FrameMac mac = new FrameMac(a, b, r0, r1, aesKey);
        final FrameMac.Tagger tagger = new FrameMac.Tagger();
        for (long sequence = 0; sequence < 70; sequence++) {
            final byte[] frame = bytes((int) (sequence * 97 % 5000));
            mac.begin(tagger, frame.length);
            tagger.update(frame, 0, frame.length);
            tagger.digest();
            mac.seal(tagger.hash0(), tagger.hash1());
            final byte[] tag = ByteBuffer.allocate(16)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(mac.tag0())
                    .putLong(mac.tag1())
                    .array();
            assertArrayEquals(expected(a, b, r0, r1, aesKey, sequence, frame), tag, "frame " + sequence);
        }
        mac.begin(tagger, 3);
        tagger.update(new byte[3], 0, 3);
        assertThrows(
                IllegalStateException.class,
                () -> tagger.finish(ByteBuffer.allocate(16), 0),
                "a frame hashed but not sealed has no tag");
    }

    /** Pads come 64 at a time: the 64th frame and those after it get their own. */
    @Test
    void shouldGiveEveryFrameItsOwnPadAcrossBatches() throws Exception {
        final FrameMac mac = new FrameMac(a, b, r0, r1, aesKey);
        final byte[] frame = bytes(40);
        for (long sequence = 0; sequence < 130; sequence++) {
            final byte[] tag = tag(mac, frame);
            if (sequence % 63 == 0 || sequence % 64 == 0) {
                assertArrayEquals(expected(a, b, r0, r1, aesKey, sequence, frame), tag, "frame " + sequence);
            }
        }
        assertEquals(130, mac.sequence());
    }

    @Test
    void shouldRefuseATagOfAFrameNotFedWhole() {
        final FrameMac mac = new FrameMac(a, b, r0, r1, aesKey);
        final FrameMac.Tagger tagger = new FrameMac.Tagger();
        mac.start(tagger, 10);
        tagger.update(new byte[9], 0, 9);
        final IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> tagger.finish(ByteBuffer.allocate(16), 0));
        assertTrue(e.getMessage().contains("10 bytes was started, 9 were fed"), e.getMessage());
    }
}
