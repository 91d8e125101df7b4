package org.troupe.bench.serialization;

/** One way of turning a case's object graph into bytes and back (or, for the baseline, of copying it). */
public interface Impl {
    /** The {@code impl} field of the figures, e.g. {@code kryo-field}. */
    String name();

    /** Whether this implementation is measured on the case at all (the copy baseline only fits arrays). */
    default boolean appliesTo(final BenchCase benchCase) {
        return true;
    }

    /**
     * Sets up everything the measured operations reuse (serializer instance, buffers, the steady-state message)
     * for {@code value}, which {@code benchCase} built.
     */
    BoundCodec bind(BenchCase benchCase, Object value) throws Exception;
}
