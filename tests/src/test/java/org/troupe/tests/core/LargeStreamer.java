package org.troupe.tests.core;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;

/**
 * In the JVM it lives in: an endpoint that answers every 'E' frame with an 'R' frame (from the thread that reads
 * it, as a lookup or a rendezvous is answered) and counts the 'L' frames; and a stream of large 'L' frames, with
 * small 'E' frames alongside, to another endpoint.
 */
public class LargeStreamer {
    private final AtomicInteger large = new AtomicInteger();
    private final AtomicInteger answers = new AtomicInteger();
    private volatile Endpoint endpoint;
    private volatile boolean streamed;
    private volatile String failure;

    public LargeStreamer() {}

    public EndpointAddress open(final String name) {
        endpoint = TroupeRuntime.get().endpoints().open(name, (from, header, payload) -> {
            switch (header.get(0)) {
                case 'E' -> endpoint.send(from, ByteBuffer.wrap(new byte[] {'R'}), ByteBuffer.allocate(0), false);
                case 'R' -> answers.incrementAndGet();
                case 'L' -> large.incrementAndGet();
                default -> {}
            }
        });
        return endpoint.address();
    }

    /** Starts streaming {@code rounds} frames of {@code bytes} to {@code to}; returns at once. */
    public void stream(final EndpointAddress to, final int rounds, final int bytes) {
        final Thread writer = Thread.ofPlatform().daemon().name("large-writer").start(() -> {
            try {
                final ByteBuffer payload = ByteBuffer.allocateDirect(bytes);
                for (int i = 0; i < rounds; i++) {
                    endpoint.send(to, ByteBuffer.wrap(new byte[] {'L'}), payload, false);
                }
                streamed = true;
            } catch (RuntimeException e) {
                failure = e.toString();
            }
        });
        Thread.ofPlatform().daemon().name("asker").start(() -> {
            try {
                while (writer.isAlive()) {
                    endpoint.send(to, ByteBuffer.wrap(new byte[] {'E'}), ByteBuffer.allocate(0), false);
                    Thread.sleep(1);
                }
            } catch (RuntimeException | InterruptedException e) {
                failure = e.toString();
            }
        });
    }

    public boolean streamed() {
        return streamed;
    }

    public String failure() {
        return String.valueOf(failure);
    }

    public int large() {
        return large.get();
    }

    public int answers() {
        return answers.get();
    }
}
