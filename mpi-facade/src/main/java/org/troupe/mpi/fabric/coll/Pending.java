package org.troupe.mpi.fabric.coll;

/** A send or receive an algorithm has started; waiting for it throws what the binding's operations throw. */
@FunctionalInterface
public interface Pending<X extends Exception> {
    /** Waits until it is complete; throws if it failed. */
    void await() throws X;

    /** Slots for {@code n} operations, one per rank; a rank's own stays null. */
    @SuppressWarnings("unchecked")
    static <X extends Exception> Pending<X>[] slots(final int n) {
        return (Pending<X>[]) new Pending<?>[n];
    }

    /** Waits for each in the order of their slots, skipping null ones (as MPI's Waitall skips null requests). */
    static <X extends Exception> void awaitAll(final Pending<X>[] all) throws X {
        for (final Pending<X> p : all) {
            if (p != null) {
                p.await();
            }
        }
    }
}
