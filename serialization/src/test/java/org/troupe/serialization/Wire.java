package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.Serializer;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.troupe.serialization.internal.GeneratedSerializer;
import org.troupe.serialization.internal.SessionKryo;

/**
 * One direction of a test connection: what {@link #sender} encodes, {@link #receiver} decodes. Both sessions share a
 * configuration unless a test builds them apart.
 */
final class Wire {
    /** Allows every test data type (they all live in this package or below it). */
    static final SerializationConfig TEST_CONFIG = SerializationConfig.builder()
            .allowPackage("org.troupe.serialization")
            .build();

    final CodecSession sender;
    final CodecSession receiver;

    Wire(final SerializationConfig config) {
        this(config, config);
    }

    Wire(final SerializationConfig senderConfig, final SerializationConfig receiverConfig) {
        this.sender = new CodecSession(senderConfig);
        this.receiver = new CodecSession(receiverConfig);
    }

    static Wire permissive() {
        return new Wire(TEST_CONFIG);
    }

    byte[] send(final Object message) {
        return sender.encoder().encodeToBytes(message);
    }

    byte[] send(final Object message, final boolean trackReferences) {
        final TroupeOutput out = sender.encoder().newOutput();
        sender.encoder().encode(message, out, trackReferences);
        return out.toBytes();
    }

    Object receive(final byte[] bytes) {
        return receiver.decoder().decode(bytes, Object.class);
    }

    @SuppressWarnings("unchecked")
    <T> T roundTrip(final T message) {
        return (T) receive(send(message));
    }

    @SuppressWarnings("unchecked")
    <T> T roundTrip(final T message, final boolean trackReferences) {
        return (T) receive(send(message, trackReferences));
    }

    /**
     * Sends {@code message} twice (the first time its classes' names cross), checks the second, steady-state
     * message is exactly {@code expectedLength} bytes, and returns what the receiver made of the second one.
     */
    @SuppressWarnings("unchecked")
    <T> T roundTrip(final int expectedLength, final T message) {
        receive(send(message));
        final byte[] steady = send(message);
        assertEquals(
                expectedLength,
                steady.length,
                () -> "steady-state length of " + describe(message) + ": " + hex(steady));
        return (T) receive(steady);
    }

    /**
     * Checks that a session serializes each of {@code types} with a serializer generated for it (a hidden nestmate
     * of the type), not with Kryo's reflective fallback, which the library uses silently (one log line) when
     * generation fails. White-box: reads the encoder's Kryo instance by reflection.
     */
    static void assertGenerated(final Class<?>... types) {
        final SessionKryo session = sessionKryo(new CodecSession(TEST_CONFIG).encoder());
        for (final Class<?> type : types) {
            final Serializer<?> serializer = session.kryo().getSerializer(type);
            assertInstanceOf(
                    GeneratedSerializer.class,
                    serializer,
                    () -> type.getName() + " fell back to "
                            + serializer.getClass().getName() + " (see the log for why generation failed)");
            assertTrue(serializer.getClass().isHidden(), serializer.getClass() + " is a hidden class");
            assertSame(
                    type.getNestHost(),
                    serializer.getClass().getNestHost(),
                    serializer.getClass() + " is a nestmate of " + type.getName());
        }
    }

    private static SessionKryo sessionKryo(final Encoder encoder) {
        for (final Field f : Encoder.class.getDeclaredFields()) {
            if (f.getType() == SessionKryo.class) {
                f.setAccessible(true);
                try {
                    return (SessionKryo) f.get(encoder);
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        throw new AssertionError("Encoder has no SessionKryo field any more; update Wire.assertGenerated");
    }

    static String describe(final Object o) {
        return o == null ? "null" : o.getClass().getName();
    }

    static String hex(final byte[] bytes) {
        final int shown = Math.min(bytes.length, 256);
        return HexFormat.ofDelimiter(" ").formatHex(bytes, 0, shown) + (shown < bytes.length ? " ..." : "");
    }

    /** Whether {@code bytes} holds the ASCII text {@code text}, ignoring the high bit Kryo sets on a string's last byte. */
    static boolean containsAscii(final byte[] bytes, final String text) {
        return indexOfAscii(bytes, text) >= 0;
    }

    static int indexOfAscii(final byte[] bytes, final String text) {
        final byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + t.length <= bytes.length; i++) {
            for (int j = 0; j < t.length; j++) {
                if ((bytes[i + j] & 0x7F) != t[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
