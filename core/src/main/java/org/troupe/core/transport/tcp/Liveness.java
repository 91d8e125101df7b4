package org.troupe.core.transport.tcp;

import static org.troupe.core.transport.tcp.FrameDescriptor.PING;

import io.netty.channel.Channel;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A link's liveness: a heartbeat every period, and the link closed when the peer stays silent for the peer
 * timeout. Both run on the transport's timer thread, so that a handler running long on the event loop (or on any
 * thread reading) delays neither; the silence is confirmed on the event loop, after reading what the socket holds.
 */
final class Liveness {
    private static final byte[] NO_BYTES = new byte[0];

    private final TcpLink link;
    private final OutboundPath outbound;
    private final Channel channel;
    private final ScheduledExecutorService timer;
    private final Duration heartbeat;
    private final Duration peerTimeout;
    /** When the last bytes came from the peer; written by whoever reads the link. */
    private volatile long lastHeard = System.nanoTime();

    private ScheduledFuture<?> heartbeats;
    /** Set while a check of the peer's silence waits for the event loop (which may be busy for long). */
    private volatile boolean silenceCheckQueued;

    /**
     * @param link what closes when the peer is silent, and whose reads ({@link TcpLink#reads()}) the check does
     * @param outbound where heartbeats are written
     * @param channel the link's channel, on whose event loop the peer's silence is confirmed
     * @param timer where heartbeats are sent and silence noticed
     */
    Liveness(
            final TcpLink link,
            final OutboundPath outbound,
            final Channel channel,
            final ScheduledExecutorService timer,
            final Duration heartbeat,
            final Duration peerTimeout) {
        this.link = link;
        this.outbound = outbound;
        this.channel = channel;
        this.timer = timer;
        this.heartbeat = heartbeat;
        this.peerTimeout = peerTimeout;
    }

    /** Once the link is in the pipeline: heartbeats, and the peer's silence watched. */
    void start() {
        final long period = heartbeat.toMillis();
        heartbeats = timer.scheduleAtFixedRate(this::heartbeat, period, period, TimeUnit.MILLISECONDS);
    }

    /** Bytes came from the peer. */
    void heard() {
        lastHeard = System.nanoTime();
    }

    /** The link ended: no more heartbeats. */
    void stop() {
        if (heartbeats != null) {
            heartbeats.cancel(false);
        }
    }

    /**
     * On the timer thread: a ping every period, busy or not (cheaper than noting each write's time), written at once
     * rather than queued for the event loop, which may be busy; none while other bytes wait to leave, which the
     * peer will hear, so that this thread never waits for room.
     */
    private void heartbeat() {
        try {
            if (!outbound.writingLarge() && outbound.pendingBytes() == 0) {
                outbound.write(PING, NO_BYTES, 0, 0, null, false);
            }
            if (System.nanoTime() - lastHeard > peerTimeout.toNanos() && !silenceCheckQueued) {
                silenceCheckQueued = true;
                channel.eventLoop().execute(this::closeIfSilent);
            }
        } catch (IllegalStateException | RejectedExecutionException closed) {
            // The link, or the transport, ends anyway; channelInactive reports it.
        }
    }

    /**
     * On the event loop: closes the link if the peer has been silent for the peer timeout, after reading what its
     * socket holds. A link looks silent to a check that runs after a long pause (of this JVM, or of the thread that
     * should have read it) though the peer's heartbeats wait in the socket: those count. While another thread
     * reads the link (a handler running long holds it), the peer is not blamed for what nobody could read.
     */
    private void closeIfSilent() {
        silenceCheckQueued = false;
        if (!link.reads().readForSilenceCheck()) {
            return;
        }
        if (System.nanoTime() - lastHeard > peerTimeout.toNanos()) {
            link.close("nothing heard from it for " + peerTimeout.toMillis() + " ms");
        }
    }
}
