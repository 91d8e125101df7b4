package org.troupe.bench.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.Arrays;

/**
 * Plain Kryo as most users run it: {@code new Kryo()}, no registration, the default FieldSerializer, references
 * only where the graph needs them, plain {@link Output} and {@link Input} over reused arrays. Unregistered class
 * names are written in every message (Kryo forgets them after each object graph).
 */
final class KryoFieldImpl implements Impl {
    @Override
    public String name() {
        return "kryo-field";
    }

    @Override
    public BoundCodec bind(final BenchCase benchCase, final Object value) {
        final Kryo kryo = new Kryo();
        kryo.setRegistrationRequired(false);
        kryo.setReferences(benchCase.references());
        return new Codec(kryo, value);
    }

    private static final class Codec implements BoundCodec {
        private final Kryo kryo;
        private final Object value;
        /** Grows as needed (no maximum), then stays at the message size. */
        private final Output out = new Output(4096, -1);

        private final Input in;
        private final int messageBytes;

        Codec(final Kryo kryo, final Object value) {
            this.kryo = kryo;
            this.value = value;
            // Kryo keeps no state between messages, but set-up encodes twice like every impl, for the same warm-up.
            final int first = write();
            kryo.readClassAndObject(new Input(out.getBuffer(), 0, first));
            final int length = write();
            this.in = new Input(Arrays.copyOf(out.getBuffer(), length));
            this.messageBytes = length;
        }

        @Override
        public int write() {
            out.setPosition(0);
            kryo.writeClassAndObject(out, value);
            return out.position();
        }

        @Override
        public Object read() {
            in.setPosition(0);
            return kryo.readClassAndObject(in);
        }

        @Override
        public Object readLastWrite() {
            return kryo.readClassAndObject(new Input(out.getBuffer(), 0, out.position()));
        }

        @Override
        public int messageBytes() {
            return messageBytes;
        }
    }
}
