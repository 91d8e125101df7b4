package org.troupe.core.instrument;

/**
 * What crossed the link to one peer runtime: frames and bytes each way, the calls each side made of the other, and
 * the futures' values pushed to it. A frame written under the link's writer lock is counted there, and a frame read
 * by the one thread reading the link at a time is counted by it, without atomic instructions; endpoint frames, sent
 * without that lock, are counted atomically apart. Each side has its own cache lines ({@link Tally}); they are read
 * only when the meters are.
 */
public final class LinkMeters {
    static final LinkMeters OFF = new LinkMeters(false);

    static final int FRAMES = 0;
    static final int BYTES = 1;
    static final int CALLS = 2;
    static final int PUSHED = 3;

    private final boolean on;
    /** Bumped under the link's writer lock. */
    private final Tally sent = new Tally(4);
    /** Endpoint frames, sent by any thread without that lock. */
    private final Tally sentUnlocked = new Tally(2);
    /** Bumped by the thread reading the link. */
    private final Tally received = new Tally(3);

    LinkMeters(final boolean on) {
        this.on = on;
    }

    /** A frame of {@code bytes} carrying {@code calls} calls left for the peer; the caller holds the writer lock. */
    public void sentLocked(final int bytes, final int calls) {
        if (on) {
            sent.bump(FRAMES, 1);
            sent.bump(BYTES, bytes);
            if (calls != 0) {
                sent.bump(CALLS, calls);
            }
        }
    }

    /** The value of a future passed on to the peer was pushed to it; the caller holds the writer lock. */
    public void pushedLocked() {
        if (on) {
            sent.bump(PUSHED, 1);
        }
    }

    /** An endpoint frame of {@code bytes} left for the peer, from any thread. */
    public void sent(final int bytes) {
        if (on) {
            sentUnlocked.add(FRAMES, 1);
            sentUnlocked.add(BYTES, bytes);
        }
    }

    /** A frame of {@code bytes} came from the peer; called by the thread reading the link. */
    public void received(final int bytes) {
        if (on) {
            received.bump(FRAMES, 1);
            received.bump(BYTES, bytes);
        }
    }

    /** The peer made {@code n} calls of this runtime's active objects; called by the thread reading the link. */
    public void callsReceived(final int n) {
        if (on) {
            received.bump(CALLS, n);
        }
    }

    long framesSent() {
        return sent.get(FRAMES) + sentUnlocked.get(FRAMES);
    }

    long bytesSent() {
        return sent.get(BYTES) + sentUnlocked.get(BYTES);
    }

    long callsSent() {
        return sent.get(CALLS);
    }

    long pushed() {
        return sent.get(PUSHED);
    }

    long framesReceived() {
        return received.get(FRAMES);
    }

    long bytesReceived() {
        return received.get(BYTES);
    }

    long callsReceived() {
        return received.get(CALLS);
    }
}
