package org.troupe.bench.core;

/** The RMI server object: a {@link Pinger}, one call at a time as an active object serves. */
final class RmiPingerServer implements RmiPinger {
    private final Pinger pinger = new Pinger();

    @Override
    public synchronized Box ping(final Box box) {
        return pinger.ping(box);
    }

    @Override
    public synchronized void tick(final long n) {
        pinger.tick(n);
    }

    @Override
    public synchronized Box ticks() {
        return pinger.ticks();
    }

    @Override
    public synchronized Box border(final Border head) {
        return pinger.border(head);
    }
}
