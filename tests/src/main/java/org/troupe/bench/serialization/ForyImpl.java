package org.troupe.bench.serialization;

import java.util.Arrays;
import org.apache.fory.Fory;
import org.apache.fory.config.CompatibleMode;
import org.apache.fory.config.Language;
import org.apache.fory.memory.MemoryBuffer;

/**
 * Apache Fory in Java mode with its generated serializers, no registration, the schema taken as identical on both
 * sides (no per-field metadata), references only where the graph needs them, over reused {@link MemoryBuffer}s.
 */
final class ForyImpl implements Impl {
    /**
     * Fory bounds object nesting at 50 by default and the 1000-node lists nest 1000 deep (each node is written
     * inside its predecessor); this bound clears every case with room to spare, and the stack (-Xss16m) holds it.
     */
    private static final int MAX_DEPTH = 100_000;

    @Override
    public String name() {
        return "fory";
    }

    @Override
    public BoundCodec bind(final BenchCase benchCase, final Object value) {
        final Fory fory = Fory.builder()
                .withLanguage(Language.JAVA)
                .requireClassRegistration(false)
                .withRefTracking(benchCase.references())
                .withCompatibleMode(CompatibleMode.SCHEMA_CONSISTENT)
                .withMaxDepth(MAX_DEPTH)
                .build();
        return new Codec(fory, value);
    }

    private static final class Codec implements BoundCodec {
        private final Fory fory;
        private final Object value;
        private final MemoryBuffer out = MemoryBuffer.newHeapBuffer(4096);
        private final MemoryBuffer in;
        private final int messageBytes;

        Codec(final Fory fory, final Object value) {
            this.fory = fory;
            this.value = value;
            final int first = write();
            fory.deserialize(MemoryBuffer.fromByteArray(out.getHeapMemory(), 0, first));
            final int length = write();
            this.in = MemoryBuffer.fromByteArray(Arrays.copyOf(out.getHeapMemory(), length));
            this.messageBytes = length;
        }

        @Override
        public int write() {
            out.writerIndex(0);
            fory.serialize(out, value);
            return out.writerIndex();
        }

        @Override
        public Object read() {
            in.readerIndex(0);
            return fory.deserialize(in);
        }

        @Override
        public Object readLastWrite() {
            return fory.deserialize(MemoryBuffer.fromByteArray(out.getHeapMemory(), 0, out.writerIndex()));
        }

        @Override
        public int messageBytes() {
            return messageBytes;
        }
    }
}
