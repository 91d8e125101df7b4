package org.troupe.bench.serialization;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * Java serialization: a new {@link ObjectOutputStream} per message (each message is a complete stream with its
 * header, as when messages are independent) over reused in-memory streams. It always tracks references.
 */
final class JdkImpl implements Impl {
    @Override
    public String name() {
        return "jdk";
    }

    @Override
    public BoundCodec bind(final BenchCase benchCase, final Object value) throws IOException, ClassNotFoundException {
        return new Codec(value);
    }

    private static final class Codec implements BoundCodec {
        private final Object value;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        private final ByteArrayInputStream in;
        private final int messageBytes;

        Codec(final Object value) throws IOException, ClassNotFoundException {
            this.value = value;
            write();
            readLastWrite();
            this.messageBytes = write();
            this.in = new ByteArrayInputStream(out.toByteArray());
        }

        @Override
        public int write() throws IOException {
            out.reset();
            try (ObjectOutputStream stream = new ObjectOutputStream(out)) {
                stream.writeObject(value);
            }
            return out.size();
        }

        @Override
        public Object read() throws IOException, ClassNotFoundException {
            // Back to the mark, which is the start: the stream is reused, the message is read anew.
            in.reset();
            return new ObjectInputStream(in).readObject();
        }

        @Override
        public Object readLastWrite() throws IOException, ClassNotFoundException {
            return new ObjectInputStream(new ByteArrayInputStream(out.toByteArray())).readObject();
        }

        @Override
        public int messageBytes() {
            return messageBytes;
        }
    }
}
