package org.troupe.core.transport.tcp;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The challenge-response that starts every connection: each side proves it knows the deployment secret with an HMAC
 * over both sides' fresh nonces and ids, so neither a stranger nor a replay gets a link. Its frames are parsed by
 * hand, with fixed bounds; nothing is deserialized before it succeeds.
 */
final class Handshake {
    static final int NONCE_BYTES = 32;
    static final int MAC_BYTES = 32;
    /** Handshake frames are small; a larger one is refused before it is buffered. */
    static final int MAX_FRAME = 1024;
    static final byte HELLO = 'h';
    static final byte CHALLENGE = 'c';
    static final byte PROOF = 'p';
    static final byte ACCEPTED = 'a';
    static final byte VERSION = 1;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] secret;

    Handshake(final byte[] secret) {
        this.secret = secret.clone();
    }

    static byte[] nonce() {
        final byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /** The proof one side ({@code role} 'C' for the connecting side, 'S' for the accepting one) sends. */
    byte[] proof(final char role, final byte[] clientNonce, final byte[] serverNonce, final String clientId,
                 final String serverId) {
        try {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((byte) role);
            mac.update(clientNonce);
            mac.update(serverNonce);
            mac.update(clientId.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            mac.update(serverId.getBytes(StandardCharsets.UTF_8));
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    boolean verify(final byte[] expected, final byte[] received) {
        return MessageDigest.isEqual(expected, received);
    }
}
