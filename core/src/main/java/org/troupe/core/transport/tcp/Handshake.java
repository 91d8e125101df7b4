package org.troupe.core.transport.tcp;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.KDF;
import javax.crypto.Mac;
import javax.crypto.spec.HKDFParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The challenge-response that starts every connection: each side proves it knows the deployment secret with an HMAC
 * over both sides' fresh nonces, the settings both announced and the ids at stake, so neither a stranger nor a replay
 * gets a link; and both derive from the same inputs the keys that authenticate the link's frames afterwards
 * ({@link FrameMac}). Its frames are parsed by hand, with fixed bounds; nothing is deserialized before it succeeds.
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
    static final byte IDENTIFIED = 'i';
    /** From the accepting side, instead of any step: this connection was dropped for a newer one (too many at once). */
    static final byte BUSY = 'b';

    static final byte VERSION = 4;
    /** The flag, announced by both sides, that every frame after the handshake carries a tag; both must agree. */
    static final byte AUTHENTICATED_FRAMES = 1;
    /**
     * The flag a side announces when it can carry the link's frames through shared memory if the peer runs on the
     * same host; the sides need not agree (the link is then plain TCP).
     */
    static final byte SHARED_MEMORY = 2;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] KEYS_INFO = "troupe link keys v3".getBytes(StandardCharsets.US_ASCII);

    private final byte[] secret;

    Handshake(final byte[] secret) {
        this.secret = secret.clone();
    }

    static byte[] nonce() {
        final byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * The proof of one step: {@code role} 'C' for the client's proof, 'S' for the server's, 'I' for the client's
     * identity; it covers the flags both sides announced; {@code fields} are the ids and addresses the step vouches
     * for, in a fixed order per role.
     */
    byte[] proof(
            final char role,
            final byte[] clientNonce,
            final byte[] serverNonce,
            final byte clientFlags,
            final byte serverFlags,
            final String... fields) {
        try {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((byte) role);
            mac.update(clientNonce);
            mac.update(serverNonce);
            mac.update(clientFlags);
            mac.update(serverFlags);
            for (final String field : fields) {
                mac.update(field.getBytes(StandardCharsets.US_ASCII));
                mac.update((byte) 0); // fields are printable ASCII: the zero keeps "ab","c" apart from "a","bc"
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    boolean verify(final byte[] expected, final byte[] received) {
        return MessageDigest.isEqual(expected, received);
    }

    /**
     * The two directions' frame keys of a link (HKDF-SHA256 over the secret, both nonces, both ids): client to
     * server first, then server to client, {@link FrameMac#KEY_BYTES} each. A relay that forwarded the handshake
     * does not know them, so it can neither inject, replay nor reorder a frame.
     */
    byte[] frameKeys(
            final byte[] clientNonce,
            final byte[] serverNonce,
            final byte flags,
            final String clientId,
            final String serverId) {
        final byte[] salt = new byte[2 * NONCE_BYTES];
        System.arraycopy(clientNonce, 0, salt, 0, NONCE_BYTES);
        System.arraycopy(serverNonce, 0, salt, NONCE_BYTES, NONCE_BYTES);
        final byte[] ids = (clientId + "\0" + serverId).getBytes(StandardCharsets.US_ASCII);
        final byte[] info = new byte[KEYS_INFO.length + 1 + ids.length];
        System.arraycopy(KEYS_INFO, 0, info, 0, KEYS_INFO.length);
        info[KEYS_INFO.length] = flags;
        System.arraycopy(ids, 0, info, KEYS_INFO.length + 1, ids.length);
        try {
            return KDF.getInstance("HKDF-SHA256")
                    .deriveData(HKDFParameterSpec.ofExtract()
                            .addIKM(secret)
                            .addSalt(salt)
                            .thenExpand(info, 2 * FrameMac.KEY_BYTES));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HKDF-SHA256 is not available in this JVM", e);
        }
    }
}
