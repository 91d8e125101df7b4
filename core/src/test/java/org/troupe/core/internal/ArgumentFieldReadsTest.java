package org.troupe.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reads of an argument's fields, found in bytecode: the trap of a future's fields, made visible. */
class ArgumentFieldReadsTest {
    /** The newcomer's value class: plus reads o.sum, which on a future is the proxy's field. */
    public static class Sample {
        private final double sum;
        private final long count;

        public Sample(final double sum, final long count) {
            this.sum = sum;
            this.count = count;
        }

        public Sample plus(final Sample o) {
            return new Sample(sum + o.sum, count + o.count);
        }

        public static Sample merge(final long weight, final Sample a, final Sample b) {
            return new Sample(weight * (a.sum + b.sum), 0);
        }

        public double sum() {
            return sum;
        }

        public long count() {
            return count;
        }
    }

    /** The same through methods, which a future forwards to its value. */
    public static class ThroughMethods {
        private double sum;

        public ThroughMethods plus(final ThroughMethods o) {
            final ThroughMethods r = new ThroughMethods();
            r.sum = sum + o.sum();
            return r;
        }

        public double sum() {
            return sum;
        }
    }

    /** A final argument type can never be a future: reading its fields is fine. */
    public static class OfFinalArguments {
        private int x;

        public static final class Point {
            int x;
        }

        public void moveTo(final Point p) {
            x = p.x;
        }
    }

    @Test
    void findsTheMethodsThatReadAFieldOfAnArgumentThatCanBeAFuture() {
        assertEquals(
                List.of(
                        "plus(Sample) reads sum of argument 1",
                        "plus(Sample) reads count of argument 1",
                        "merge(long, Sample, Sample) reads sum of argument 2",
                        "merge(long, Sample, Sample) reads sum of argument 3"),
                ArgumentFieldReads.in(Sample.class));
    }

    @Test
    void findsNothingWhereArgumentsAreReadThroughMethodsOrCannotBeFutures() {
        assertEquals(List.of(), ArgumentFieldReads.in(ThroughMethods.class));
        assertEquals(List.of(), ArgumentFieldReads.in(OfFinalArguments.class));
    }
}
