package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

class FramePathsTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private final List<TcpTransport> transports = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    /** Forwards client -> server in random pieces, with random pauses; can flip a byte at a stream offset. */
    static final class ChunkRelay implements AutoCloseable {
        final ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        final List<Socket> sockets = new ArrayList<>();
        volatile long flipAt = -1; // offset in the client's stream after mark
        volatile boolean marked;
        long sinceMark;

        ChunkRelay(final int serverPort, final long seed) throws IOException {
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    final Socket client = listener.accept();
                    final Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                    synchronized (this) {
                        sockets.add(client);
                        sockets.add(server);
                    }
                    pump(server.getInputStream(), client.getOutputStream(), false, seed);
                    pump(client.getInputStream(), server.getOutputStream(), true, seed);
                } catch (IOException closed) {
                    // over
                }
            });
        }

        String address() {
            return "127.0.0.1:" + listener.getLocalPort();
        }

        private void pump(final InputStream in, final OutputStream out, final boolean fromClient, final long seed) {
            Thread.ofPlatform().daemon().start(() -> {
                final Random random = new Random(seed);
                final byte[] buffer = new byte[65536];
                try {
                    while (true) {
                        final int want =
                                fromClient ? 1 + random.nextInt(random.nextBoolean() ? 64 : 20_000) : buffer.length;
                        final int n = in.read(buffer, 0, want);
                        if (n < 0) {
                            break;
                        }
                        if (fromClient && marked) {
                            final long f = flipAt;
                            if (f >= sinceMark && f < sinceMark + n) {
                                buffer[(int) (f - sinceMark)] ^= 1;
                            }
                            sinceMark += n;
                        }
                        out.write(buffer, 0, n);
                        out.flush();
                        if (fromClient && random.nextInt(8) == 0) {
                            Thread.sleep(0, 200_000); // let the server drain the socket mid-frame
                        }
                    }
                } catch (IOException | InterruptedException closed) {
                    // over
                }
                close();
            });
        }

        @Override
        public synchronized void close() {
            try {
                listener.close();
            } catch (IOException ignored) {
                // closing
            }
            for (final Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }
    }

    private TcpTransport transport(final String id) {
        final TcpTransport t = new TcpTransport(
                id,
                SECRET,
                new TcpSettings("127.0.0.1", 0, Duration.ofSeconds(20), Duration.ofSeconds(40), 64 << 20, true));
        transports.add(t);
        return t;
    }

    @AfterEach
    void closeAll() throws Exception {
        for (final AutoCloseable c : closeables) {
            c.close();
        }
        transports.forEach(TcpTransport::close);
    }

    private record Pair(Link client, TcpTransportTest.Recorder server, ChunkRelay relay) {}

    private Pair pair(final LinkHandler serverHandler, final TcpTransportTest.Recorder serverSide, final long seed)
            throws Exception {
        final String address = transport("server").listen(serverHandler);
        final ChunkRelay relay =
                new ChunkRelay(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)), seed);
        closeables.add(relay);
        final Link link = transport("client")
                .connect(relay.address(), "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        assertNotNull(serverSide.opened.poll(5, TimeUnit.SECONDS));
        relay.marked = true;
        return new Pair(link, serverSide, relay);
    }

    private static final int[] SIZES = {
        0,
        1,
        2,
        11,
        27,
        4090,
        4091,
        4092,
        4095,
        4096,
        4097,
        4075,
        4076,
        8186,
        8187,
        8188,
        8192,
        12_283,
        65_531,
        65_536,
        (1 << 20) - 22,
        (1 << 20) - 21,
        (1 << 20) - 20,
        (1 << 20) - 6,
        (1 << 20) - 5,
        (1 << 20) - 4,
        (1 << 20),
        (1 << 20) + 4091,
        (1 << 20) + 4096,
        3 << 20,
        (3 << 20) + 7
    };

    /** Every size around block and large-frame boundaries, through every send path, split at random: intact. */
    /** Three ways to split the stream; one in the fast loop (bin/test --fast, which runs fewer fuzz cases). */
    static long[] seeds() {
        return Integer.getInteger("troupe.test.fuzzCases", 20_000) < 20_000 ? new long[] {1} : new long[] {1, 2, 3};
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void framesOfEverySizeThroughEveryPathArriveIntact(final long seed) throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final Pair p = pair(serverSide, serverSide, seed);
        final Random random = new Random(seed);
        final List<byte[]> expected = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            for (final int size : SIZES) {
                final byte[] payload = new byte[size];
                random.nextBytes(payload);
                expected.add(payload);
                final int headLength = Math.min(size, random.nextInt(64));
                final byte[] head = Arrays.copyOf(payload, headLength + 13); // longer than the head sent
                final byte[] rest = Arrays.copyOfRange(payload, headLength, size);
                switch (round) {
                    case 0 -> p.client().send(payload, 0, size, false);
                    case 1 -> {
                        final byte[] padded = new byte[size + 10];
                        System.arraycopy(payload, 0, padded, 3, size);
                        p.client().send(padded, 3, size, true);
                    }
                    case 2 -> p.client().send(head, headLength, ByteBuffer.wrap(rest), false);
                    case 3 -> {
                        final ByteBuffer d = ByteBuffer.allocateDirect(rest.length + 9);
                        d.position(5).put(rest).flip().position(5);
                        p.client().send(head, headLength, d.slice(), random.nextBoolean());
                    }
                    case 4 -> {
                        final ByteBuffer big = ByteBuffer.allocate(rest.length + 20);
                        big.position(7).put(rest).position(7).limit(7 + rest.length);
                        p.client().send(head, headLength, big.asReadOnlyBuffer(), false);
                    }
                    default -> {
                        final ByteBuffer d = ByteBuffer.allocateDirect(rest.length + 9);
                        d.position(5).put(rest).flip().position(5);
                        p.client().send(head, headLength, d, false);
                    }
                }
            }
        }
        for (int i = 0; i < expected.size(); i++) {
            final byte[] got = p.server().frames.poll(20, TimeUnit.SECONDS);
            assertNotNull(
                    got,
                    "frame " + i + " of " + expected.get(i).length + " bytes; closed: "
                            + p.server().closed.peek());
            assertArrayEquals(expected.get(i), got, "frame " + i + " of " + expected.get(i).length);
        }
        assertTrue(p.client().isOpen());
    }

    /** A byte flipped near the end of a large frame (last block, or the tag) closes the link before hand-on. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void aLargeFrameAlteredInItsLastBlockOrTagIsRefused(final int where) throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final Pair p = pair(serverSide, serverSide, 9 + where);
        final int size = (3 << 20) + 100;
        // stream offsets: prefix 4, kind 1, payload, tag 16
        final long offset = switch (where) {
            case 0 -> 5 + size - 1; // last payload byte
            case 1 -> 5 + size + 15; // last tag byte
            case 2 -> 5 + size - 4096; // a byte of the last whole block
            default -> 4; // the kind byte
        };
        p.relay().flipAt = offset;
        p.client().send(new byte[size], 0, size, false);
        final String reason = p.server().closed.poll(10, TimeUnit.SECONDS);
        assertNotNull(reason);
        assertTrue(reason.contains("authentication"), reason);
        assertNull(p.server().frames.poll());
    }

    /** Several threads send small and large frames on one link while the server echoes each from its handler. */
    @Test
    void concurrentSendersWithEchoes() throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final LinkHandler echo = new LinkHandler() {
            @Override
            public void opened(final Link link) {
                serverSide.opened(link);
            }

            @Override
            public void received(final Link link, final byte[] frame, final int offset, final int length) {
                serverSide.received(link, frame, offset, length);
                link.send(frame, offset, Math.min(length, 100_000), false);
            }

            @Override
            public void closed(final Link link, final String reason) {
                serverSide.closed(link, reason);
            }
        };
        final String address = transport("server").listen(echo);
        final AtomicLong echoes = new AtomicLong();
        final AtomicReference<String> clientClosed = new AtomicReference<>();
        final Link link = transport("client")
                .connect(
                        address,
                        "",
                        new LinkHandler() {
                            @Override
                            public void opened(final Link l) {}

                            @Override
                            public void received(final Link l, final byte[] frame, final int offset, final int length) {
                                echoes.incrementAndGet();
                            }

                            @Override
                            public void closed(final Link l, final String reason) {
                                clientClosed.set(reason);
                            }
                        },
                        Duration.ofSeconds(5));
        final int threads = 4;
        final int perThread = 150;
        final CountDownLatch done = new CountDownLatch(threads);
        final ConcurrentHashMap<String, Throwable> failures = new ConcurrentHashMap<>();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            Thread.ofPlatform().start(() -> {
                final Random random = new Random(id);
                try {
                    for (int i = 0; i < perThread; i++) {
                        final int size =
                                random.nextInt(10) == 0 ? (1 << 20) + random.nextInt(300_000) : random.nextInt(9000);
                        final byte[] payload = new byte[Math.max(size, 8)];
                        ByteBuffer.wrap(payload).putInt(id).putInt(i);
                        for (int k = 8; k < payload.length; k++) {
                            payload[k] = (byte) (k * 31 + id + i);
                        }
                        if (random.nextBoolean()) {
                            p(link, payload, random);
                        } else {
                            link.send(payload, 0, payload.length, random.nextBoolean());
                        }
                    }
                } catch (Throwable e) {
                    failures.put("sender " + id, e);
                } finally {
                    done.countDown();
                }
            });
        }
        assertTrue(done.await(120, TimeUnit.SECONDS));
        assertTrue(failures.isEmpty(), failures.toString());
        final int[] next = new int[threads];
        for (int n = 0; n < threads * perThread; n++) {
            final byte[] got = serverSide.frames.poll(30, TimeUnit.SECONDS);
            assertNotNull(got, "frame " + n + "; closed " + serverSide.closed.peek());
            final ByteBuffer b = ByteBuffer.wrap(got);
            final int id = b.getInt();
            final int i = b.getInt();
            assertEquals(next[id]++, i, "order of sender " + id);
            for (int k = 8; k < got.length; k++) {
                if (got[k] != (byte) (k * 31 + id + i)) {
                    throw new AssertionError("byte " + k + " of frame " + i + " of sender " + id);
                }
            }
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (echoes.get() < threads * perThread && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(threads * perThread, echoes.get(), "echoes; client closed: " + clientClosed.get());
        assertTrue(link.isOpen());
    }

    private static void p(final Link link, final byte[] payload, final Random random) {
        final int head = Math.min(payload.length, 8 + random.nextInt(50));
        final ByteBuffer tail = random.nextBoolean()
                ? ByteBuffer.allocateDirect(payload.length - head)
                : ByteBuffer.allocate(payload.length - head);
        tail.put(payload, head, payload.length - head).flip();
        link.send(payload, head, tail, random.nextBoolean());
    }
}
