package org.troupe.bench.mpi;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.JvmFlags;

/**
 * The blocking baselines of {@code pingpong-loaded}, timed as {@link MpiRank}'s ping-pong (half round trips, the
 * same samples, warm-up and sizes): two threads of this JVM handing the buffer through {@link SynchronousQueue}s, and this
 * JVM against an echo in another over blocking loopback sockets. Each line is {@code bytes median_us p99_us}.
 */
final class BlockingPingPong {
    private BlockingPingPong() {}

    static List<String> queue(final int samples) throws BenchFailure {
        final SynchronousQueue<byte[]> there = new SynchronousQueue<>();
        final SynchronousQueue<byte[]> back = new SynchronousQueue<>();
        final Thread echo = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    back.put(there.take());
                }
            } catch (InterruptedException e) {
                // the end
            }
        });
        try {
            return timed(samples, buf -> {
                there.put(buf);
                if (back.take() != buf) {
                    throw new BenchFailure("blocking-queue: another buffer came back");
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted", e);
        } finally {
            echo.interrupt();
        }
    }

    /** One round trip of {@code buf} to the echo and back. */
    private interface RoundTrip<X extends Exception> {
        void run(byte[] buf) throws BenchFailure, X;
    }

    /** Times {@code samples} round trips of each size after as many unrecorded ones: a line per size. */
    private static <X extends Exception> List<String> timed(final int samples, final RoundTrip<X> trip)
            throws BenchFailure, X {
        final List<String> lines = new ArrayList<>();
        for (final int bytes : MpiSuite.LOADED_BYTES) {
            final byte[] buf = new byte[bytes];
            final long[] times = new long[samples];
            for (int i = -samples; i < samples; i++) {
                final long t0 = System.nanoTime();
                trip.run(buf);
                if (i >= 0) {
                    times[i] = System.nanoTime() - t0;
                }
            }
            lines.add(MpiRank.line(bytes, times, 2).trim());
        }
        return lines;
    }

    static List<String> sockets(final int samples) throws BenchFailure {
        final List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JvmFlags.inherited());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BlockingPingPong.class.getName()));
        Process p = null;
        try {
            p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            final int port = new DataInputStream(p.getInputStream()).readInt();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                s.setTcpNoDelay(true);
                final DataOutputStream out = new DataOutputStream(s.getOutputStream());
                final DataInputStream in = new DataInputStream(s.getInputStream());
                final List<String> lines = timed(samples, buf -> {
                    out.writeInt(buf.length);
                    out.write(buf);
                    out.flush();
                    in.readFully(buf);
                });
                out.writeInt(-1);
                out.flush();
                return lines;
            }
        } catch (IOException e) {
            throw new BenchFailure("blocking-socket: " + e.getMessage(), e);
        } finally {
            if (p != null) {
                try {
                    if (!p.waitFor(5, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * The echo JVM: writes its port to standard output, then sends back each message of the one connection it
     * accepts ({@code int length, bytes}) until a negative length.
     */
    public static void main(final String[] args) throws IOException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            final DataOutputStream announce = new DataOutputStream(System.out);
            announce.writeInt(server.getLocalPort());
            announce.flush();
            try (Socket s = server.accept()) {
                s.setTcpNoDelay(true);
                final InputStream rawIn = s.getInputStream();
                final OutputStream out = s.getOutputStream();
                final DataInputStream in = new DataInputStream(rawIn);
                byte[] buf = new byte[0];
                while (true) {
                    final int n = in.readInt();
                    if (n < 0) {
                        return;
                    }
                    if (buf.length != n) {
                        buf = new byte[n];
                    }
                    in.readFully(buf);
                    out.write(buf);
                    out.flush();
                }
            }
        }
    }
}
