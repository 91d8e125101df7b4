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

/** The handshake's proofs: what each one is bound to. */
class HandshakeTest {
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
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
        final byte[] proof = a.proof('C', clientNonce, serverNonce, "client", "server");
        assertEquals(Handshake.MAC_BYTES, proof.length);
        assertTrue(new Handshake(SECRET).verify(proof,
            new Handshake(SECRET.clone()).proof('C', clientNonce, serverNonce, "client", "server")));
        assertFalse(a.verify(proof, Arrays.copyOf(proof, proof.length - 1)), "a truncated proof");
    }

    /** A proof that did not change with one of its inputs could be replayed where that input differs. */
    @Test
    void shouldBindTheProofToTheRoleTheNoncesTheIdsAndTheSecret() {
        final Handshake h = new Handshake(SECRET);
        final byte[] other = Handshake.nonce();
        final List<byte[]> proofs = List.of(
            h.proof('C', clientNonce, serverNonce, "client", "server"),
            h.proof('S', clientNonce, serverNonce, "client", "server"),
            h.proof('C', other, serverNonce, "client", "server"),
            h.proof('C', clientNonce, other, "client", "server"),
            h.proof('C', clientNonce, serverNonce, "clienT", "server"),
            h.proof('C', clientNonce, serverNonce, "client", "serveR"),
            h.proof('C', clientNonce, serverNonce, "clients", "erver"), // the ids are kept apart
            new Handshake("guess".getBytes(StandardCharsets.UTF_8))
                .proof('C', clientNonce, serverNonce, "client", "server"));
        final Set<String> distinct = new HashSet<>();
        proofs.forEach(p -> distinct.add(Arrays.toString(p)));
        assertEquals(proofs.size(), distinct.size());
    }

    @Test
    void shouldKeepItsOwnCopyOfTheSecret() {
        final byte[] secret = SECRET.clone();
        final Handshake h = new Handshake(secret);
        final byte[] before = h.proof('C', clientNonce, serverNonce, "client", "server");
        secret[0] ^= 1;
        assertArrayEquals(before, h.proof('C', clientNonce, serverNonce, "client", "server"));
    }
}
