package org.troupe.core.remote;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.exceptions.CallTimeoutException;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.RuntimeSettings;
import org.troupe.core.spi.Spin;

/** Call deadlines against callbacks (as Futures.onResolved registers them) that throw or wait. */
class CallDeadlineCallbacksTest {
    /**
     * How long a test waits for a 500 ms deadline to fire before it calls the deadline lost: long enough that a
     * loaded machine's scheduling never makes a working deadline look lost (2 s did, at a load of 25 on 2 cores).
     */
    private static final long NEVER_NANOS = TimeUnit.SECONDS.toNanos(30);

    private Remoting r;
    private Peer p;

    @BeforeEach
    void setUp() {
        // Long enough that a callback is registered before its call's deadline passes, even on a loaded machine (with
        // 50 ms it was sometimes run at once, on the test's thread).
        final RuntimeSettings withDeadline = PeerTest.settings(Duration.ofMillis(500));
        final PeerTest.NoObjects here = new PeerTest.NoObjects() {
            @Override
            public RuntimeSettings settings() {
                return withDeadline;
            }
        };
        final Remoting[] holder = new Remoting[1];
        r = new Remoting(
                here,
                new PeerTest.NoTransport(),
                new EndpointTable("rt-local", () -> holder[0], () -> "127.0.0.1:7001"));
        holder[0] = r;
        final PeerTest.FakeLink silent = new PeerTest.FakeLink();
        silent.handler = r;
        r.opened(silent);
        p = r.peer("rt-remote", "10.0.0.9:7000");
    }

    @AfterEach
    void tearDown() {
        r.close();
    }

    /** As Futures.onResolved does it. */
    private static void onResolved(final FutureState f, final Runnable callback) {
        f.whenDoneOnItsOwnThread((v, t) -> callback.run());
    }

    @Test
    void anErrorInACallbackStopsEveryLaterDeadline() {
        final FutureState first = p.call(7, 1, new Object[0], false, () -> "first");
        onResolved(first, () -> {
            throw new AssertionError("a bug in user code");
        });
        assertThrows(CallTimeoutException.class, () -> first.await(Spin.NONE));
        final FutureState second = p.call(7, 2, new Object[0], false, () -> "second");
        assertThrows(
                CallTimeoutException.class,
                () -> second.await(Spin.NONE, NEVER_NANOS),
                "the second call should time out after 500 ms");
    }

    @Test
    void aThrowingCallbackOnOneCallOfACallManyLeavesTheOthersWithoutDeadline() {
        final FutureState[] fs = p.callMany(new long[] {7, 8, 9}, 1, new Object[0], false, i -> () -> "call " + i);
        onResolved(fs[0], () -> {
            throw new IllegalStateException("a bug in user code");
        });
        assertThrows(CallTimeoutException.class, () -> fs[0].await(Spin.NONE));
        assertThrows(
                CallTimeoutException.class,
                () -> fs[1].await(Spin.NONE, NEVER_NANOS),
                "the other calls of the frame should time out after 500 ms too");
    }

    @Test
    void aCallbackThatCallsAndWaitsBlocksEveryDeadline() {
        final FutureState first = p.call(7, 1, new Object[0], false, () -> "first");
        final AtomicReference<Throwable> inner = new AtomicReference<>();
        onResolved(first, () -> {
            try {
                p.call(7, 3, new Object[0], false, () -> "retry").await(Spin.NONE);
            } catch (Throwable t) {
                inner.set(t);
            }
        });
        assertThrows(CallTimeoutException.class, () -> first.await(Spin.NONE));
        final FutureState other = p.call(7, 2, new Object[0], false, () -> "other");
        assertThrows(
                CallTimeoutException.class,
                () -> other.await(Spin.NONE, NEVER_NANOS),
                "an unrelated call should time out after 500 ms");
    }
}
