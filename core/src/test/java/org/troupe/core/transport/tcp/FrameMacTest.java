package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The frame tags against their definition, the first 16 bytes of HMAC-SHA-256 over the sequence number (eight bytes,
 * big-endian) and then the frame, computed by two implementations other than the JDK's: RFC 2104's formula over
 * SHA-256, here (itself checked against RFC 4231's test vectors), and OpenSSL's. Whatever pieces the frame is fed
 * in, from arrays or direct buffers; and a frame altered, moved to another place in the sequence, or of another
 * length, refused.
 */
class FrameMacTest {
    private static final HexFormat HEX = HexFormat.of();

    private final Random random = new Random(42);
    private final byte[] keys = bytes(FrameMac.KEY_BYTES);

    private byte[] bytes(final int n) {
        final byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** HMAC-SHA-256 by RFC 2104: H((K ^ opad) || H((K ^ ipad) || m)), for keys of up to SHA-256's block. */
    private static byte[] hmacSha256(final byte[] key, final byte[] message) throws Exception {
        final byte[] inner = new byte[64];
        final byte[] outer = new byte[64];
        for (int i = 0; i < 64; i++) {
            final byte k = i < key.length ? key[i] : 0;
            inner[i] = (byte) (k ^ 0x36);
            outer[i] = (byte) (k ^ 0x5c);
        }
        final MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        sha256.update(inner);
        final byte[] innerHash = sha256.digest(message);
        sha256.update(outer);
        return sha256.digest(innerHash);
    }

    /** What a frame's tag is: the sequence number, then the frame. */
    private static byte[] tagged(final long sequence, final byte[] frame) {
        return ByteBuffer.allocate(8 + frame.length)
                .putLong(sequence)
                .put(frame)
                .array();
    }

    private static byte[] expected(final byte[] key, final long sequence, final byte[] frame) throws Exception {
        return Arrays.copyOf(hmacSha256(key, tagged(sequence, frame)), FrameMac.TAG_BYTES);
    }

    private static byte[] tag(final FrameMac mac, final byte[] frame, final int... cuts) {
        final FrameMac.Tagger tagger = mac.tagger();
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

    /** The reference here is the standard: RFC 4231's test cases 1, 2 and 5 (truncated to 128 bits). */
    @Test
    void theReferenceHmacPassesRfc4231() throws Exception {
        final byte[] key1 = new byte[20];
        Arrays.fill(key1, (byte) 0x0b);
        assertEquals(
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
                HEX.formatHex(hmacSha256(key1, "Hi There".getBytes(StandardCharsets.US_ASCII))));
        assertEquals(
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                HEX.formatHex(hmacSha256(
                        "Jefe".getBytes(StandardCharsets.US_ASCII),
                        "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII))));
        final byte[] key5 = new byte[20];
        Arrays.fill(key5, (byte) 0x0c);
        assertEquals(
                "a3b6167473100ee06e0c796c2955552b",
                HEX.formatHex(Arrays.copyOf(
                        hmacSha256(key5, "Test With Truncation".getBytes(StandardCharsets.US_ASCII)), 16)));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 55, 56, 63, 64, 65, 4095, 4096, 4097, 70_000})
    void shouldTagAsDefinedWhateverTheLength(final int length) throws Exception {
        final FrameMac mac = new FrameMac(keys, 0);
        for (long sequence = 0; sequence < 3; sequence++) {
            final byte[] frame = bytes(length);
            assertArrayEquals(expected(keys, sequence, frame), tag(mac, frame), "frame " + sequence);
        }
        assertEquals(3, mac.sequence());
    }

    /** OpenSSL, another implementation of HMAC-SHA-256, gives the same tags for frames of every size. */
    @Test
    void shouldTagAsOpenSslDoes(@TempDir final Path dir) throws Exception {
        final FrameMac mac = new FrameMac(keys, 0);
        for (long sequence = 0; sequence < 4; sequence++) {
            final byte[] frame = bytes((int) (sequence * 33_333));
            final Path input = Files.write(dir.resolve("frame" + sequence), tagged(sequence, frame));
            final String openSsl = openSslHmac(keys, input);
            assertEquals(openSsl.substring(0, 2 * FrameMac.TAG_BYTES), HEX.formatHex(tag(mac, frame)));
        }
    }

    private static String openSslHmac(final byte[] key, final Path input) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder(
                        "openssl",
                        "dgst",
                        "-sha256",
                        "-mac",
                        "HMAC",
                        "-macopt",
                        "hexkey:" + HEX.formatHex(key),
                        "-r",
                        input.toString())
                .redirectErrorStream(true)
                .start();
        try {
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "openssl did not end");
            assertEquals(0, p.exitValue(), out);
            return out.substring(0, out.indexOf(' ')); // "-r": the digest, then the file
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void shouldGiveTheSameTagWhateverPiecesTheFrameComesIn() {
        final byte[] frame = bytes(3 * FrameMac.BLOCK_BYTES + 77);
        final byte[] whole = tag(new FrameMac(keys, 0), frame);
        for (int trial = 0; trial < 50; trial++) {
            final int[] cuts = random.ints(1 + random.nextInt(12), 0, frame.length + 1)
                    .sorted()
                    .toArray();
            assertArrayEquals(whole, tag(new FrameMac(keys, 0), frame, cuts), Arrays.toString(cuts));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4096, 5000})
    void shouldTagFromADirectBufferAsFromAnArray(final int cut) {
        final byte[] frame = bytes(9000);
        final ByteBuffer direct = ByteBuffer.allocateDirect(frame.length + 20);
        direct.position(20).put(frame).position(7); // position and limit are not the frame's bounds
        final FrameMac mac = new FrameMac(keys, 0);
        final FrameMac.Tagger tagger = mac.tagger();
        mac.start(tagger, frame.length);
        tagger.update(direct, 20, cut);
        tagger.update(direct, 20 + cut, frame.length - cut);
        final ByteBuffer tag = ByteBuffer.allocateDirect(FrameMac.TAG_BYTES);
        tagger.finish(tag, 0);
        final byte[] fromDirect = new byte[FrameMac.TAG_BYTES];
        tag.get(0, fromDirect);
        assertEquals(7, direct.position(), "the buffer's position does not move");
        assertArrayEquals(tag(new FrameMac(keys, 0), frame), fromDirect);
    }

    @Test
    void shouldRefuseAFrameAlteredReplayedOrOfAnotherLength() {
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
        final byte[] longer = Arrays.copyOf(first, first.length + 1);
        assertFalse(checks(new FrameMac(keys, 0), longer, firstTag), "a zero byte appended");
        final byte[] otherTag = firstTag.clone();
        otherTag[15] ^= 1;
        assertFalse(checks(new FrameMac(keys, 0), first, otherTag), "the tag altered");
        final byte[] otherKeys = keys.clone();
        otherKeys[0] ^= 1;
        assertFalse(checks(new FrameMac(otherKeys, 0), first, firstTag), "another key");
    }

    private static boolean checks(final FrameMac receiving, final byte[] frame, final byte[] tag) {
        final FrameMac.Tagger tagger = receiving.tagger();
        receiving.start(tagger, frame.length);
        tagger.update(frame, 0, frame.length);
        final byte[] withTag = new byte[5 + tag.length];
        System.arraycopy(tag, 0, withTag, 5, tag.length);
        return tagger.matches(withTag, 5);
    }

    @Test
    void shouldRefuseATagOfAFrameNotFedWholeOrNotStarted() {
        final FrameMac mac = new FrameMac(keys, 0);
        final FrameMac.Tagger tagger = mac.tagger();
        mac.start(tagger, 10);
        tagger.update(new byte[9], 0, 9);
        final IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> tagger.finish(ByteBuffer.allocate(16), 0));
        assertTrue(e.getMessage().contains("10 bytes was started, 9 were fed"), e.getMessage());
        mac.start(tagger, 0);
        tagger.finish(ByteBuffer.allocate(16), 0);
        assertThrows(
                IllegalStateException.class,
                () -> tagger.finish(ByteBuffer.allocate(16), 0),
                "one tag per frame started");
    }
}
