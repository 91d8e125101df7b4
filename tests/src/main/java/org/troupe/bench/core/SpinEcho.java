package org.troupe.bench.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The floor for a TCP round trip: one byte there and back over non-blocking sockets, both sides busy-polling.
 *
 * <p>The echo side falls back to a blocking read after a millisecond without traffic, so that while the other
 * implementations are measured it does not take a core from them (a host may have just two).
 */
final class SpinEcho implements AutoCloseable {
    private static final long IDLE_NANOS = 1_000_000L;

    private final SocketChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(1);

    private SpinEcho(final SocketChannel channel) {
        this.channel = channel;
    }

    /** Starts the echo for one client on a daemon thread; returns the port it listens on (loopback). */
    static int serve() throws IOException {
        final ServerSocketChannel server =
                ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread.ofPlatform().daemon().name("spin-echo").start(() -> echo(server));
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    private static void echo(final ServerSocketChannel server) {
        try (server;
                SocketChannel ch = server.accept()) {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.configureBlocking(false);
            final ByteBuffer b = ByteBuffer.allocateDirect(1);
            long lastTraffic = System.nanoTime();
            while (true) {
                b.clear();
                int n = ch.read(b);
                if (n == 0) {
                    if (System.nanoTime() - lastTraffic < IDLE_NANOS) {
                        Thread.onSpinWait();
                        continue;
                    }
                    ch.configureBlocking(true);
                    n = ch.read(b);
                    ch.configureBlocking(false);
                }
                if (n < 0) {
                    return; // the client is done
                }
                b.flip();
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                lastTraffic = System.nanoTime();
            }
        } catch (IOException e) {
            // The client went away mid-exchange: the run is over for this echo.
        }
    }

    /** Connects to an echo started by {@link #serve()}. */
    static SpinEcho connect(final String host, final int port) throws IOException {
        final SocketChannel ch = SocketChannel.open(new InetSocketAddress(host, port));
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.configureBlocking(false);
        return new SpinEcho(ch);
    }

    /** Sends one byte and spins until it comes back. */
    byte roundTrip(final byte value) {
        try {
            buffer.clear();
            buffer.put(value).flip();
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            buffer.clear();
            int n;
            while ((n = channel.read(buffer)) == 0) {
                Thread.onSpinWait();
            }
            if (n < 0) {
                throw new IOException("the echo closed the connection");
            }
            return buffer.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
