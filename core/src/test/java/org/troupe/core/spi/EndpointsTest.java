package org.troupe.core.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TroupeException;

/** Endpoints within one runtime: the frame reaches the handler on the sender's thread, as views, uncopied. */
class EndpointsTest {
    private TroupeRuntime runtime;

    /** What a handler saw of one frame. */
    record Seen(EndpointAddress from, String header, String payload, Thread thread, boolean readOnly) {}

    static final class Recorder implements EndpointHandler {
        final List<Seen> frames = new ArrayList<>();

        @Override
        public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
            frames.add(new Seen(
                    from,
                    StandardCharsets.UTF_8.decode(header.duplicate()).toString(),
                    StandardCharsets.UTF_8.decode(payload.duplicate()).toString(),
                    Thread.currentThread(),
                    header.isReadOnly() && payload.isReadOnly()));
        }
    }

    @BeforeEach
    void start() {
        runtime = TroupeRuntime.start(CoreConfig.builder().transport("local").build());
    }

    @AfterEach
    void stop() {
        runtime.shutdown();
    }

    private static ByteBuffer text(final String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldHandAFrameToALocalEndpointOnTheSendersThreadAsReadOnlyViews() {
        final Recorder a = new Recorder();
        final Recorder b = new Recorder();
        try (Endpoint ea = runtime.endpoints().open("a", a);
                Endpoint eb = runtime.endpoints().open("b", b)) {
            final ByteBuffer header = text("tag=7");
            final ByteBuffer payload = text("xxhello");
            payload.position(2);
            ea.send(eb.address(), header, payload, false);
            assertEquals(List.of(new Seen(ea.address(), "tag=7", "hello", Thread.currentThread(), true)), b.frames);
            assertEquals(0, header.position(), "the sender's buffers are not moved");
            assertEquals(2, payload.position());
            assertTrue(a.frames.isEmpty());
        }
    }

    @Test
    void shouldNotLetAHandlerWriteIntoTheSendersBuffer() {
        final List<Throwable> refused = new ArrayList<>();
        try (Endpoint ea = runtime.endpoints().open("a", new Recorder());
                Endpoint eb = runtime.endpoints()
                        .open(
                                "b",
                                (from, header, payload) -> refused.add(
                                        assertThrows(ReadOnlyBufferException.class, () -> payload.put(0, (byte) 1))))) {
            final ByteBuffer payload = text("x");
            ea.send(eb.address(), text(""), payload, false);
            assertEquals(1, refused.size());
            assertEquals('x', payload.get(0));
        }
    }

    @Test
    void shouldLoseOnlyTheFrameAHandlerFailsOn() {
        final Recorder seen = new Recorder();
        try (Endpoint ea = runtime.endpoints().open("a", new Recorder());
                Endpoint eb = runtime.endpoints().open("b", (from, header, payload) -> {
                    if (payload.get(0) == 'x') {
                        throw new IllegalStateException("a bug in the layer");
                    }
                    seen.received(from, header, payload);
                })) {
            ea.send(eb.address(), text(""), text("x"), false); // not the sender's failure
            ea.send(eb.address(), text(""), text("y"), false);
            assertEquals(List.of("y"), seen.frames.stream().map(Seen::payload).toList());
        }
    }

    @Test
    void shouldFindEndpointsByNameAndRefuseUnknownClosedOrDuplicateOnes() {
        final Recorder r = new Recorder();
        final Endpoint e = runtime.endpoints().open("ranks/0", r);
        assertEquals(e.address(), runtime.endpoints().lookup("ranks/0"));
        assertEquals(runtime.id(), e.address().runtimeId());
        final IllegalArgumentException twice = assertThrows(
                IllegalArgumentException.class, () -> runtime.endpoints().open("ranks/0", r));
        assertTrue(twice.getMessage().contains("ranks/0 is open already"), twice.getMessage());
        final Endpoint sender = runtime.endpoints().open("sender", new Recorder());
        e.close();
        final TroupeException unknown =
                assertThrows(TroupeException.class, () -> runtime.endpoints().lookup("ranks/0"));
        assertTrue(unknown.getMessage().contains("No endpoint called ranks/0 is open"), unknown.getMessage());
        final TroupeException closed =
                assertThrows(TroupeException.class, () -> sender.send(e.address(), text(""), text("late"), false));
        assertTrue(closed.getMessage().contains("is not open"), closed.getMessage());
        assertTrue(r.frames.isEmpty());
        sender.close();
        final IllegalStateException senderClosed = assertThrows(
                IllegalStateException.class, () -> sender.send(sender.address(), text(""), text("after close"), false));
        assertTrue(senderClosed.getMessage().contains("Endpoint sender is closed"), senderClosed.getMessage());
    }

    @Test
    void shouldRefuseAHeaderLongerThanTheLimit() {
        try (Endpoint ea = runtime.endpoints().open("a", new Recorder())) {
            final IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> ea.send(ea.address(), ByteBuffer.allocate(Endpoint.MAX_HEADER_BYTES + 1), text(""), false));
            assertTrue(e.getMessage().contains("at most 65535 bytes"), e.getMessage());
        }
    }

    @Test
    void shouldBeEqualForTheSameEndpointWhateverAddressItWasReachedAt() {
        assertEquals(new EndpointAddress("rt-1-a", "", 3), new EndpointAddress("rt-1-a", "10.0.0.1:5000", 3));
        assertEquals(
                new EndpointAddress("rt-1-a", "", 3).hashCode(), new EndpointAddress("rt-1-a", "h:1", 3).hashCode());
        assertTrue(!new EndpointAddress("rt-1-a", "", 3).equals(new EndpointAddress("rt-1-b", "", 3)));
    }

    @Test
    void shouldRefuseEndpointsOfARuntimeThatIsShutDown() {
        final TroupeRuntime ended = runtime;
        ended.shutdown();
        assertThrows(TerminatedException.class, ended::endpoints);
        runtime = TroupeRuntime.start(CoreConfig.builder().transport("local").build());
        assertSame(runtime.endpoints(), TroupeRuntime.get().endpoints(), "the runtime started after is this JVM's");
    }
}
