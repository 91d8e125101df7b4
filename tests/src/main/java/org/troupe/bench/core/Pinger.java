package org.troupe.bench.core;

/** The object every implementation calls: the same work behind an active object, an executor and RMI. */
public class Pinger {
    private long ticks;

    public Box ping(final Box box) {
        return new Box(box.value() + 1);
    }

    /** One-way when called on an active object. */
    public void tick(final long n) {
        ticks += n;
    }

    public Box ticks() {
        return new Box(ticks);
    }

    public Box border(final Border head) {
        return new Box(head.length());
    }
}
