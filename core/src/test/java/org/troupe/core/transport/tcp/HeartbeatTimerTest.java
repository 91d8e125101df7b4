package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.transport.Link;

/**
 * The heartbeat timer thread (one per transport) never waits for room: heartbeat() checks pendingBytes() == 0, then
 * write(PING) takes the outbound lock, and a frame queued in between (a batched send of a large frame to a peer that
 * reads slowly) must not make it wait there, or the other links' pings stop and their peers close them as silent.
 * The race is made deterministic by holding the lock until the timer thread waits for it.
 */
class HeartbeatTimerTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    /**
     * Longer than the test holds a lock: finding the timer thread's stack and queueing a large frame took over a
     * second on a loaded 2-core machine, and s2's link was closed for a silence the test itself made.
     */
    private static final Duration PEER_TIMEOUT = Duration.ofSeconds(5);

    private final List<TcpTransport> transports = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    private TcpTransport transport(final String id) {
        final TcpTransport t = new TcpTransport(
                id, SECRET, new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), PEER_TIMEOUT, 128 << 20, true));
        transports.add(t);
        return t;
    }

    @AfterEach
    void closeAll() {
        release.countDown();
        transports.forEach(TcpTransport::close);
    }

    @Test
    void aHeartbeatNeverWaitsForRoomSoOtherLinksKeepTheirHeartbeats() throws Exception {
        final TcpTransportTest.Recorder s1 = new TcpTransportTest.Recorder() {
            @Override
            public void received(final Link link, final byte[] frame, final int offset, final int length) {
                try {
                    release.await(); // a slow reader: the link's socket fills
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        final TcpTransportTest.Recorder s2 = new TcpTransportTest.Recorder();
        final String a1 = transport("s1").listen(s1);
        final String a2 = transport("s2").listen(s2);
        final TcpTransport client = transport("client");
        final TcpLink toS1 = (TcpLink) client.connect(a1, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        client.connect(a2, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        assertNotNull(s2.opened.poll(5, TimeUnit.SECONDS));
        toS1.send(new byte[] {1}, 0, 1, false); // s1's reader now blocks

        final OutboundPath outbound = toS1.outbound();
        final int big = 80 << 20;
        synchronized (outbound.lock()) {
            Thread timer = null;
            for (int i = 0; i < 500 && timer == null; i++) {
                for (final Map.Entry<Thread, StackTraceElement[]> e :
                        Thread.getAllStackTraces().entrySet()) {
                    if (e.getKey().getName().equals("troupe-heartbeats")
                            && e.getKey().getState() == Thread.State.BLOCKED
                            && Arrays.stream(e.getValue())
                                    .anyMatch(s -> s.getMethodName().equals("write"))
                            && Arrays.stream(e.getValue())
                                    .anyMatch(s -> s.getMethodName().equals("heartbeat"))) {
                        timer = e.getKey();
                    }
                }
                Thread.sleep(2);
            }
            assertNotNull(timer, "the timer thread got past pendingBytes() == 0 and waits for the lock");
            // Another sender's batched large frame lands between the check and the lock (as queue() is called by
            // write).
            outbound.queue(FrameDescriptor.MESSAGE, new byte[big], 0, big, null, big, -1, false);
        }
        outbound.scheduleFlush();
        final String reason = s2.closed.poll(PEER_TIMEOUT.toMillis() + 2_000, TimeUnit.MILLISECONDS);
        assertNull(reason, "the link to s2, idle but healthy, was closed: " + reason);
    }
}
