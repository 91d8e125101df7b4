package org.troupe.core.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.troupe.core.internal.CallResults;
import org.troupe.core.internal.FutureState;
import org.troupe.core.spi.Spin;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/** A future passed on in a frame whose send fails, resolved while that send is under way. */
class PushedFutureRaceTest {
    static final class SlowFailingLink implements Link {
        final List<Byte> kindsSent = new CopyOnWriteArrayList<>();
        final CountDownLatch inFirstSend = new CountDownLatch(1);
        final CountDownLatch failFirstSend = new CountDownLatch(1);
        volatile boolean first = true;
        LinkHandler handler;

        @Override
        public String peerRuntimeId() {
            return "rt-remote";
        }

        @Override
        public String peerAddress() {
            return "10.0.0.9:7000";
        }

        @Override
        public String localAddress() {
            return "10.0.0.1:7000";
        }

        @Override
        public void send(final byte[] frame, final int offset, final int length, final boolean batch) {
            if (first) {
                first = false;
                inFirstSend.countDown();
                try {
                    failFirstSend.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("the socket failed half way"); // e.g. writeLarge giving up
            }
            kindsSent.add(frame[offset]);
        }

        @Override
        public void send(final byte[] head, final int headLength, final ByteBuffer tail, final boolean batch) {
            send(head, 0, headLength, batch);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close(final String reason) {}
    }

    @Test
    void noValueIsPushedForAFuturePassedOnInAFrameThatFailedToSend() throws Exception {
        final PeerTest.NoObjects here = new PeerTest.NoObjects();
        final Remoting[] holder = new Remoting[1];
        final Remoting r = new Remoting(
                here,
                new PeerTest.NoTransport(),
                new EndpointTable("rt-local", () -> holder[0], () -> "127.0.0.1:7001"));
        holder[0] = r;
        try {
            final SlowFailingLink link = new SlowFailingLink();
            link.handler = r;
            r.opened(link);
            final Peer p = r.peer("rt-remote", "10.0.0.9:7000");
            final FutureState pending = new FutureState(() -> "Solver.step on Solver#1");
            final Object future = CallResults.futureProxy(pending, Runnable.class, Spin.NONE);
            final Thread caller = Thread.ofPlatform()
                    .start(() -> assertThrows(
                            RuntimeException.class, () -> p.call(7, 1, new Object[] {future}, true, () -> "call")));
            link.inFirstSend.await(5, TimeUnit.SECONDS);
            // The future resolves while its frame is being sent: the callback checks the flag, then waits for the lock.
            final Thread resolver = Thread.ofPlatform().start(() -> pending.complete("value"));
            Thread.sleep(200);
            link.failFirstSend.countDown();
            caller.join(5000);
            resolver.join(5000);
            assertEquals(
                    List.of(),
                    link.kindsSent,
                    "no FUTURE_VALUE (kind " + Frames.FUTURE_VALUE + ") for the future of a frame never sent");
        } finally {
            r.close();
        }
    }
}
