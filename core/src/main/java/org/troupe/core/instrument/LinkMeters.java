package org.troupe.core.instrument;

import java.util.concurrent.atomic.LongAdder;

/**
 * What crossed the link to one peer runtime: frames and bytes each way, the calls each side made of the other, and
 * the futures' values pushed to it. The peer's threads bump them; they are read only when the meters are.
 */
public final class LinkMeters {
    static final LinkMeters OFF = new LinkMeters(false);

    private final boolean on;
    final LongAdder framesSent = new LongAdder();
    final LongAdder bytesSent = new LongAdder();
    final LongAdder framesReceived = new LongAdder();
    final LongAdder bytesReceived = new LongAdder();
    final LongAdder callsSent = new LongAdder();
    final LongAdder callsReceived = new LongAdder();
    final LongAdder futuresPushed = new LongAdder();

    LinkMeters(final boolean on) {
        this.on = on;
    }

    /** A frame of {@code bytes} left for the peer. */
    public void sent(final int bytes) {
        if (on) {
            framesSent.increment();
            bytesSent.add(bytes);
        }
    }

    /** A frame of {@code bytes} came from the peer. */
    public void received(final int bytes) {
        if (on) {
            framesReceived.increment();
            bytesReceived.add(bytes);
        }
    }

    /** This runtime made {@code n} calls of the peer's active objects (one frame may carry a call for many). */
    public void callsSent(final int n) {
        if (on) {
            callsSent.add(n);
        }
    }

    /** The peer made {@code n} calls of this runtime's active objects. */
    public void callsReceived(final int n) {
        if (on) {
            callsReceived.add(n);
        }
    }

    /** The value of a future passed on to the peer was pushed to it. */
    public void futurePushed() {
        if (on) {
            futuresPushed.increment();
        }
    }
}
