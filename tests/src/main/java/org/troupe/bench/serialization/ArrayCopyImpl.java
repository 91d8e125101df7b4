package org.troupe.bench.serialization;

/**
 * The memory-bandwidth bound for the array cases: write copies the data into a preallocated array of the same
 * type, read makes a new array holding it ({@code clone()}, per row for arrays of arrays). No serializer can move
 * the same data faster than this.
 */
final class ArrayCopyImpl implements Impl {
    @Override
    public String name() {
        return "arraycopy";
    }

    @Override
    public boolean appliesTo(final BenchCase benchCase) {
        return benchCase.primitiveArrays();
    }

    @Override
    public BoundCodec bind(final BenchCase benchCase, final Object value) {
        return switch (value) {
            case double[] d -> new DoubleArrayCopy(d);
            case int[][] m -> new IntMatrixCopy(m);
            default ->
                throw new IllegalArgumentException(
                        "no copy baseline for " + Differences.typeOf(value) + " (case " + benchCase.name() + ")");
        };
    }

    private static final class DoubleArrayCopy implements BoundCodec {
        private final double[] source;
        private final double[] target;

        DoubleArrayCopy(final double[] source) {
            this.source = source;
            this.target = new double[source.length];
        }

        @Override
        public int write() {
            System.arraycopy(source, 0, target, 0, source.length);
            return messageBytes();
        }

        @Override
        public Object read() {
            return source.clone();
        }

        @Override
        public Object readLastWrite() {
            return target;
        }

        @Override
        public int messageBytes() {
            return source.length * Double.BYTES;
        }
    }

    private static final class IntMatrixCopy implements BoundCodec {
        private final int[][] source;
        private final int[][] target;
        private final int messageBytes;

        IntMatrixCopy(final int[][] source) {
            this.source = source;
            this.target = new int[source.length][];
            int bytes = 0;
            for (int i = 0; i < source.length; i++) {
                target[i] = new int[source[i].length];
                bytes += source[i].length * Integer.BYTES;
            }
            this.messageBytes = bytes;
        }

        @Override
        public int write() {
            for (int i = 0; i < source.length; i++) {
                System.arraycopy(source[i], 0, target[i], 0, source[i].length);
            }
            return messageBytes;
        }

        @Override
        public Object read() {
            final int[][] copy = new int[source.length][];
            for (int i = 0; i < source.length; i++) {
                copy[i] = source[i].clone();
            }
            return copy;
        }

        @Override
        public Object readLastWrite() {
            return target;
        }

        @Override
        public int messageBytes() {
            return messageBytes;
        }
    }
}
