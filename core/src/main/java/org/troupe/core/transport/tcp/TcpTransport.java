package org.troupe.core.transport.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Promise;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.spi.Progress;
import org.troupe.core.transport.Addresses;
import org.troupe.core.transport.AnnouncedAddress;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.Transport;
import org.troupe.core.transport.TransportSettings;

/**
 * TCP links on Netty, over the JDK's socket channels (epoll on Linux): length-prefixed frames, a challenge-response
 * handshake on the deployment secret before anything else, heartbeats while idle, and a link closed when its peer
 * stays silent longer than the peer timeout. Sending and waiting threads write and read the sockets themselves
 * ({@link TcpLink}); the event loops handle the rest.
 */
public final class TcpTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(TcpTransport.class);
    static final String FRAMES = "frames";
    static final String HANDSHAKE_TIMEOUT = "handshake-timeout";
    private static final int HANDSHAKE_SECONDS = 10;
    /**
     * Socket buffers large enough that a sender's direct write of a typical message (a border exchange of tens
     * of kilobytes) goes out whole: a fresh connection starts with 16 KiB and grows only with use, and the part a
     * socket does not take waits for the event loop. The kernel caps it (net.core.wmem_max / rmem_max).
     */
    private static final int SOCKET_BUFFER_BYTES = 1 << 20;
    /**
     * Accepted connections that may be proving the secret at once; beyond it, the oldest is dropped for the newest
     * (a genuine dialler proves the secret within milliseconds, so a stranger holding connections open cannot keep it
     * out).
     */
    static final int MAX_UNAUTHENTICATED = 64;

    /** Accepted connections that have not proved the secret yet, oldest first. */
    private final Set<Channel> unauthenticated = new LinkedHashSet<>();

    private final String runtimeId;
    private final Handshake handshake;
    private volatile Refusal lastRefusal;
    private final TcpSettings settings;
    private final EventLoopGroup group;
    /** Sends the links' heartbeats and watches their peers' silence, whatever the event loops are doing. */
    private final ScheduledExecutorService timer;

    private final AtomicBoolean closed = new AtomicBoolean();

    private volatile Channel server;
    /** Open links, which threads waiting for a reply may read ({@link Progress}). */
    private final CopyOnWriteArrayList<TcpLink> links = new CopyOnWriteArrayList<>();

    private final Progress.Poller poller = new Progress.Poller() {
        @Override
        public void poll() {
            for (final TcpLink link : links) { // an array snapshot: cheap enough for every step of a spin
                link.poll();
            }
        }

        @Override
        public void watchAgain() {
            for (final TcpLink link : links) {
                link.watchAgain();
            }
        }
    };
    /** What this runtime announces to its peers; null until {@link #listen}. */
    private volatile AnnouncedAddress announced;

    public TcpTransport(final String runtimeId, final byte[] secret, final TcpSettings settings) {
        this.runtimeId = runtimeId;
        this.handshake = new Handshake(secret);
        this.settings = settings;
        this.group = new NioEventLoopGroup(2, new DefaultThreadFactory("troupe-tcp", true));
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("troupe-heartbeats").factory());
        Progress.register(poller);
    }

    /**
     * The transport of the runtime {@code runtimeId}, set up from its settings; {@code offerSharedMemory}: whether
     * the handshake offers shared memory (for a transport built on this one, {@link TcpSettings}).
     */
    public static TcpTransport of(
            final String runtimeId, final TransportSettings settings, final boolean offerSharedMemory) {
        return new TcpTransport(
                runtimeId,
                settings.secret().getBytes(StandardCharsets.UTF_8),
                new TcpSettings(
                        settings.bindHost(),
                        settings.advertiseHost(),
                        settings.port(),
                        settings.heartbeat(),
                        settings.peerTimeout(),
                        settings.maxMessageBytes(),
                        settings.authenticateFrames(),
                        offerSharedMemory));
    }

    /**
     * A connection turned away before it became a link: logged; kept for {@link #lastRefusal()} when the peer failed
     * the handshake itself ({@code peerFailed}), so that a port probe or a timeout does not hide a node JVM's failure.
     */
    void refused(final String who, final String reason, final boolean peerFailed) {
        if (refusalsLogged.tryAcquire(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime()))) {
            final long quiet = refusalsNotLogged.getAndSet(0);
            LOG.warn(
                    "Refused a connection from {}: {}{}",
                    who,
                    reason,
                    quiet == 0 ? "" : " (and " + quiet + " more refused meanwhile, not logged)");
        } else {
            refusalsNotLogged.incrementAndGet();
        }
        if (peerFailed) {
            lastRefusal = new Refusal(System.nanoTime(), who + " (" + reason + ")");
        }
    }

    @Override
    public String lastRefusal() {
        final Refusal r = lastRefusal;
        return r == null
                ? null
                : r.what() + ", " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - r.nanos()) + " ms ago";
    }

    private record Refusal(long nanos, String what) {}

    /**
     * At most {@value #REFUSALS_LOGGED_PER_SECOND} refusals a second are logged, the others counted: anyone who
     * reaches the port can make them, as fast as connections open, and they must not fill the disk.
     */
    static final class RefusalBudget {
        private long second = -1;
        private int used;

        /** Whether one more may be logged in the second {@code now}. */
        synchronized boolean tryAcquire(final long now) {
            if (now != second) {
                second = now;
                used = 0;
            }
            return used++ < REFUSALS_LOGGED_PER_SECOND;
        }
    }

    static final int REFUSALS_LOGGED_PER_SECOND = 10;
    private final RefusalBudget refusalsLogged = new RefusalBudget();
    private final AtomicLong refusalsNotLogged = new AtomicLong();

    void added(final TcpLink link) {
        links.add(link);
    }

    void removed(final TcpLink link) {
        links.remove(link);
    }

    String runtimeId() {
        return runtimeId;
    }

    /**
     * Where the peer of {@code channel} is told to dial this runtime: empty until {@link #listen} (a runtime that
     * only connects announces no address); bound to a wildcard, the local address of the channel's connection.
     */
    String announcedOn(final Channel channel) {
        final AnnouncedAddress a = announced;
        if (a == null) {
            return "";
        }
        return a.to(channel.localAddress() instanceof InetSocketAddress local ? local.getAddress() : null);
    }

    Handshake handshake() {
        return handshake;
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    Duration heartbeat() {
        return settings.heartbeat();
    }

    Duration peerTimeout() {
        return settings.peerTimeout();
    }

    /**
     * Counts {@code channel}, accepted, as proving the secret; drops the oldest such connection if there are more
     * than {@value #MAX_UNAUTHENTICATED}, telling it why: a stranger opening connections by the thousand must not
     * exhaust this runtime (each costs a socket and a handshake's state until its timeout), nor keep the deployment's
     * own runtimes out by holding the slots.
     */
    private void startHandshake(final Channel channel) {
        final Channel dropped;
        synchronized (unauthenticated) {
            unauthenticated.add(channel);
            if (unauthenticated.size() <= MAX_UNAUTHENTICATED) {
                return;
            }
            final Iterator<Channel> oldest = unauthenticated.iterator();
            dropped = oldest.next();
            oldest.remove();
        }
        // On the dropped connection's own event loop, where its handshake runs: one that succeeded meanwhile (its
        // handler replaced by the link's) is a link now, and stays.
        try {
            dropped.eventLoop().execute(() -> {
                if (dropped.pipeline().get(HandshakeHandler.class) == null) {
                    return;
                }
                refused(
                        String.valueOf(dropped.remoteAddress()),
                        "dropped for a newer connection: " + MAX_UNAUTHENTICATED + " were proving the secret at once",
                        false);
                dropped.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 1, Handshake.BUSY}))
                        .addListener(ChannelFutureListener.CLOSE);
            });
        } catch (RejectedExecutionException stopping) {
            // the transport is closing, and every connection with it
        }
    }

    /** An accepted connection proved the secret, or ended: it no longer counts against the cap. */
    void handshakeEnded(final Channel channel) {
        synchronized (unauthenticated) {
            unauthenticated.remove(channel);
        }
    }

    /** A frame holds a message, its kind byte and its tag. */
    int maxFrameBytes() {
        return settings.maxMessageBytes() + 1 + (settings.authenticateFrames() ? FrameMac.TAG_BYTES : 0);
    }

    boolean authenticatesFrames() {
        return settings.authenticateFrames();
    }

    boolean offersSharedMemory() {
        return settings.offerSharedMemory();
    }

    /**
     * Whether both ends of {@code link}, a link of this transport, offered in the handshake to carry its frames
     * through shared memory: then a transport built on this one may move them there ({@link TcpSettings}).
     */
    public boolean sharesMemory(final Link link) {
        return link instanceof TcpLink t && t.sharedMemory();
    }

    /**
     * {@code link}, a link of this transport, now carries little but wake-ups for a transport built on this one (its
     * frames go through shared memory): from now on only its event loop reads it, and always watches its socket.
     * Spinning waiters then stop reading it at every step (a system call each), and a wake-up sent while nobody
     * spins is read at once, not when the event loop next checks whether anyone still spins.
     */
    public void leaveToEventLoop(final Link link) {
        if (link instanceof TcpLink t) {
            links.remove(t);
            t.leaveToEventLoop();
        }
    }

    /** {@code expectedId}: when connecting, the runtime expected at the other end, or empty for any. */
    private ChannelInitializer<SocketChannel> initializer(
            final boolean connecting,
            final String expectedId,
            final LinkHandler handler,
            final Promise<TcpLink> linked) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(final SocketChannel ch) {
                if (!connecting) {
                    startHandshake(ch);
                }
                ch.pipeline()
                        .addLast(FRAMES, new FrameDecoder(Handshake.MAX_FRAME))
                        .addLast(HANDSHAKE_TIMEOUT, new ReadTimeoutHandler(HANDSHAKE_SECONDS))
                        .addLast(
                                "handshake",
                                new HandshakeHandler(TcpTransport.this, connecting, expectedId, handler, linked));
            }
        };
    }

    @Override
    public String listen(final LinkHandler handler) {
        return listen(handler, settings.bindHost());
    }

    @Override
    public synchronized String listen(final LinkHandler handler, final String bindHost) {
        if (server != null) {
            return announced.byDefault();
        }
        final ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channelFactory(DirectSocketChannel.Server::new)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES)
                .childOption(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_BYTES)
                .childHandler(initializer(false, "", handler, null));
        try {
            server = b.bind(bindHost, settings.port()).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while binding " + bindHost + ":" + settings.port(), e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Cannot listen on " + Addresses.hostPort(bindHost, settings.port()) + " (" + e.getMessage()
                            + "); set troupe.core.bindAddress to an address of this host"
                            + " (or 0.0.0.0) and troupe.core.port to a free port (or 0)",
                    e);
        }
        final InetSocketAddress bound = (InetSocketAddress) server.localAddress();
        announced = AnnouncedAddress.of(settings.advertiseHost(), bindHost, bound.getAddress(), bound.getPort());
        final String listening = Addresses.hostPort(bindHost, bound.getPort());
        if (announced.perConnection()) {
            LOG.info(
                    "Runtime {} listens on {} (every interface) and announces to each peer the address it reaches"
                            + " this host at; where no connection tells, {}",
                    runtimeId,
                    listening,
                    announced.byDefault());
        } else {
            LOG.debug("Runtime {} listens on {} and announces {}", runtimeId, listening, announced.byDefault());
        }
        return announced.byDefault();
    }

    @Override
    public Link connect(
            final String target, final String expectedRuntimeId, final LinkHandler handler, final Duration timeout) {
        final String host = Addresses.host(target);
        final int targetPort = Addresses.port(target);
        final Promise<TcpLink> linked = group.next().newPromise();
        final Bootstrap b = new Bootstrap()
                .group(group)
                .channelFactory(DirectSocketChannel::new)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES)
                .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_BYTES)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .handler(initializer(true, expectedRuntimeId, handler, linked));
        final Channel channel = b.connect(host, targetPort)
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        linked.tryFailure(f.cause());
                    }
                })
                .channel();
        try {
            return linked.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            channel.close();
            throw new IllegalStateException(
                    "No Troupe runtime answered at " + target + " within " + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            channel.close();
            throw new IllegalStateException(
                    "Cannot connect to " + target + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            channel.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while connecting to " + target, e);
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(
                false, true)) { // a second close (a runtime's, then a shutdown hook's) has nothing to do
            return;
        }
        Progress.unregister(poller);
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        timer.shutdownNow();
    }
}
