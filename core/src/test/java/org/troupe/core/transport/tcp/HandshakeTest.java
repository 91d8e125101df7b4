package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The handshake's proofs and frame keys: what each one is bound to. */
class HandshakeTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final byte ON = Handshake.AUTHENTICATED_FRAMES;
    private final byte[] clientNonce = Handshake.nonce();
    private final byte[] serverNonce = Handshake.nonce();

    @Test
    void shouldGiveFreshNoncesOfTheirLength() {
        assertEquals(Handshake.NONCE_BYTES, clientNonce.length);
        assertFalse(Arrays.equals(clientNonce, serverNonce));
    }

    @Test
    void shouldProveAndVerifyTheSameInputsAlike() {
        final Handshake a = new Handshake(SECRET);
        final byte[] proof = a.proof('C', clientNonce, serverNonce, ON, ON, "server");
        assertEquals(Handshake.MAC_BYTES, proof.length);
        assertTrue(new Handshake(SECRET)
                .verify(proof, new Handshake(SECRET.clone()).proof('C', clientNonce, serverNonce, ON, ON, "server")));
        assertFalse(a.verify(proof, Arrays.copyOf(proof, proof.length - 1)), "a truncated proof");
    }

    /** A proof that did not change with one of its inputs could be replayed where that input differs. */
    @Test
    void shouldBindTheProofToTheRoleTheNoncesTheSettingsTheFieldsAndTheSecret() {
        final Handshake h = new Handshake(SECRET);
        final byte[] other = Handshake.nonce();
        final List<byte[]> proofs = List.of(
                h.proof('I', clientNonce, serverNonce, ON, ON, "server", "client"),
                h.proof('S', clientNonce, serverNonce, ON, ON, "server", "client"),
                h.proof('I', other, serverNonce, ON, ON, "server", "client"),
                h.proof('I', clientNonce, other, ON, ON, "server", "client"),
                h.proof('I', clientNonce, serverNonce, (byte) 0, ON, "server", "client"),
                h.proof('I', clientNonce, serverNonce, ON, (byte) 0, "server", "client"),
                h.proof('I', clientNonce, serverNonce, ON, ON, "serveR", "client"),
                h.proof('I', clientNonce, serverNonce, ON, ON, "server", "clienT"),
                h.proof('I', clientNonce, serverNonce, ON, ON, "serverc", "lient"), // the fields are kept apart
                h.proof('I', clientNonce, serverNonce, ON, ON, "server"),
                new Handshake("guess".getBytes(StandardCharsets.UTF_8))
                        .proof('I', clientNonce, serverNonce, ON, ON, "server", "client"));
        final Set<String> distinct = new HashSet<>();
        proofs.forEach(p -> distinct.add(Arrays.toString(p)));
        assertEquals(proofs.size(), distinct.size());
    }

    @Test
    void shouldKeepItsOwnCopyOfTheSecret() {
        final byte[] secret = SECRET.clone();
        final Handshake h = new Handshake(secret);
        final byte[] before = h.proof('C', clientNonce, serverNonce, ON, ON, "server");
        secret[0] ^= 1;
        assertArrayEquals(before, h.proof('C', clientNonce, serverNonce, ON, ON, "server"));
    }

    /** Both ends derive the same keys; a relay that changed a nonce or an id, or lacks the secret, does not. */
    @Test
    void shouldDeriveFrameKeysFromTheSecretBothNoncesAndBothIds() {
        final byte[] keys = new Handshake(SECRET).frameKeys(clientNonce, serverNonce, ON, "client", "server");
        assertEquals(2 * FrameMac.KEY_BYTES, keys.length);
        assertArrayEquals(
                keys, new Handshake(SECRET.clone()).frameKeys(clientNonce, serverNonce, ON, "client", "server"));
        assertFalse(
                Arrays.equals(
                        Arrays.copyOf(keys, FrameMac.KEY_BYTES),
                        Arrays.copyOfRange(keys, FrameMac.KEY_BYTES, keys.length)),
                "each direction its own keys");
        final Handshake h = new Handshake(SECRET);
        final List<byte[]> others = List.of(
                h.frameKeys(Handshake.nonce(), serverNonce, ON, "client", "server"),
                h.frameKeys(clientNonce, Handshake.nonce(), ON, "client", "server"),
                h.frameKeys(clientNonce, serverNonce, ON, "mallory", "server"),
                h.frameKeys(clientNonce, serverNonce, ON, "client", "relay"),
                h.frameKeys(clientNonce, serverNonce, ON, "server", "client"),
                new Handshake("guess".getBytes(StandardCharsets.UTF_8))
                        .frameKeys(clientNonce, serverNonce, ON, "client", "server"));
        for (final byte[] other : others) {
            assertFalse(Arrays.equals(keys, other));
        }
    }
}
