package org.troupe.bench.serialization;

import java.util.Arrays;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.Decoder;
import org.troupe.serialization.Encoder;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/** Troupe's codec, as a connection uses it: the sender's encoder and the receiver's decoder. */
final class TroupeImpl implements Impl {
    @Override
    public String name() {
        return "troupe";
    }

    @Override
    public BoundCodec bind(final BenchCase benchCase, final Object value) {
        final SerializationConfig config = SerializationConfig.builder()
                .allowPackage(Node.class.getPackageName())
                .references(false)
                .build();
        return new Codec(
                new CodecSession(config).encoder(), new CodecSession(config).decoder(), value, benchCase.references());
    }

    private static final class Codec implements BoundCodec {
        private final Encoder encoder;
        private final Decoder decoder;
        private final Object value;
        private final boolean references;
        private final TroupeOutput out;
        private final TroupeInput in;
        private final int messageBytes;

        Codec(final Encoder encoder, final Decoder decoder, final Object value, final boolean references) {
            this.encoder = encoder;
            this.decoder = decoder;
            this.value = value;
            this.references = references;
            this.out = encoder.newOutput();
            // The first message names the classes; the receiver learns them by decoding it, once, in order.
            final int first = encodeOnce();
            decoder.decode(new TroupeInput(out.getBuffer(), 0, first));
            final int length = encodeOnce();
            this.in = new TroupeInput(Arrays.copyOf(out.getBuffer(), length), 0, length);
            this.messageBytes = length;
        }

        private int encodeOnce() {
            out.setPosition(0);
            encoder.encode(value, out, references);
            return out.position();
        }

        @Override
        public int write() {
            return encodeOnce();
        }

        @Override
        public Object read() {
            in.setPosition(0);
            return decoder.decode(in);
        }

        @Override
        public Object readLastWrite() {
            return decoder.decode(new TroupeInput(out.getBuffer(), 0, out.position()));
        }

        @Override
        public int messageBytes() {
            return messageBytes;
        }
    }
}
