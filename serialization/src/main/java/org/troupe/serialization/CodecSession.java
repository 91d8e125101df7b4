package org.troupe.serialization;

import java.util.List;
import java.util.Objects;
import org.troupe.serialization.internal.AllowList;

/**
 * The serialization state of one connection between two peers: an {@link Encoder} for what this side sends and a
 * {@link Decoder} for what it receives. Each half keeps its own class table, agreed as the connection goes: the
 * first time a class crosses, its name is written and it gets a small id; after that only the id is written. Peers
 * therefore need not register classes in the same order, or at all beyond the allow-list.
 *
 * <p>The two halves are independent: the encoder is used by one sending thread and the decoder by one receiving
 * thread, which may be different threads. Neither half is thread-safe on its own. Messages must be decoded in the
 * order they were encoded, each exactly once, as a connection delivers them.
 *
 * <pre>{@code
 * CodecSession session = new CodecSession(SerializationConfig.builder().allowPackage("org.acme.solver").build());
 * TroupeOutput out = session.encoder().newOutput();
 * session.encoder().encode(new Step(0.1, mesh), out);
 * // ... out.getBuffer()[0, out.position()) travels to the peer, whose session decodes it:
 * Step step = peerSession.decoder().decode(new TroupeInput(bytes, 0, length), Step.class);
 * }</pre>
 */
public final class CodecSession {
    private final SerializationConfig config;
    private final Encoder encoder;
    private final Decoder decoder;

    public CodecSession(final SerializationConfig config) {
        this(config, List.of());
    }

    /**
     * @param forms how objects that cannot cross as themselves cross this connection (proxies, handles); the first
     *     form whose type matches an object applies
     */
    public CodecSession(final SerializationConfig config, final List<WireForm<?, ?>> forms) {
        this.config = Objects.requireNonNull(config, "config");
        final List<WireForm<?, ?>> copy = List.copyOf(forms);
        final AllowList allowList = new AllowList(config, copy);
        this.encoder = new Encoder(config, allowList, copy);
        this.decoder = new Decoder(config, allowList, copy);
    }

    public SerializationConfig config() {
        return config;
    }

    /** The half that writes what this side sends; one thread at a time. */
    public Encoder encoder() {
        return encoder;
    }

    /** The half that reads what this side receives; one thread at a time. */
    public Decoder decoder() {
        return decoder;
    }
}
