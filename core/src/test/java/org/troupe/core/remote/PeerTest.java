package org.troupe.core.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.troupe.core.ActiveObjects;
import org.troupe.core.CoreConfig;
import org.troupe.core.OneWayFailure;
import org.troupe.core.Subscription;
import org.troupe.core.exceptions.CallFailedException;
import org.troupe.core.exceptions.CallTimeoutException;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.instrument.ObjectMeters;
import org.troupe.core.instrument.RuntimeMeters;
import org.troupe.core.internal.Body;
import org.troupe.core.internal.CallResults;
import org.troupe.core.internal.Copier;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.LocalRuntime;
import org.troupe.core.internal.RuntimeSettings;
import org.troupe.core.service.Immediate;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Spin;
import org.troupe.core.spi.WireClasses;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.Transport;
import org.troupe.serialization.ClassNotAllowedException;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.NotSendableException;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * A {@link Peer} driven frame by frame against a fake {@link Link}: the bytes it sends, and what the frames fed to
 * it do. The other runtime is played by {@link #remote}, a codec session of its own, which decodes every frame the
 * peer sends and encodes every frame fed to it, in order, so that both class tables stay in step as on a real link.
 */
class PeerTest {
    private static final String LOCAL_ID = "rt-local";
    private static final String PEER_ID = "rt-remote";
    private static final String PEER_ADDRESS = "10.0.0.9:7000";
    private static final String PEER = PEER_ID + " at " + PEER_ADDRESS;
    /** Call frame: kind, call id, object id, method; then the arguments. */
    private static final int CALL_ARGS_AT = 1 + 8 + 8 + 4;

    /** A value class the two runtimes agree on. */
    record Point(int x, int y) {}

    /** A value class that may hold anything, even what can never be sent. */
    record Parcel(Point at, Object content) {}

    /** A class the remote side may send but this runtime refuses. */
    record Forbidden(String what) {}

    /** An exception whose class this runtime does not allow, so it cannot be rebuilt here. */
    static final class SolverBroke extends RuntimeException {
        SolverBroke(final String message) {
            super(message);
        }
    }

    private static final SerializationConfig WIRE = WireClasses.addTo(
            SerializationConfig.builder()
                    .allowClass(Point.class, Parcel.class, Guarded.class)
                    .build(),
            RemoteFailure.class,
            EndpointAddress.class);

    /** A frame the peer handed to its link: {@code head} and, for the gathering send, {@code tail}. */
    record Sent(byte[] head, byte[] tail, boolean batch, boolean gathered) {
        byte[] bytes() {
            final byte[] all = Arrays.copyOf(head, head.length + tail.length);
            System.arraycopy(tail, 0, all, head.length, tail.length);
            return all;
        }
    }

    /** Records what is sent; a closed link refuses sends as a real one does, and tells its handler it closed. */
    static final class FakeLink implements Link {
        final List<Sent> sent = new ArrayList<>();
        final List<String> closes = new ArrayList<>();
        LinkHandler handler;
        boolean open = true;

        /** The runtime at the other end, and where it listens. */
        String id = PEER_ID;

        String address = PEER_ADDRESS;

        @Override
        public String peerRuntimeId() {
            return id;
        }

        @Override
        public String peerAddress() {
            return address;
        }

        /** Where this side is reached: what it puts in references to its own objects and futures. */
        String local = "10.0.0.1:5000";

        @Override
        public String localAddress() {
            return local;
        }

        /** The largest frame this link takes, as a transport's maximum message size bounds it. */
        int maxFrame = Integer.MAX_VALUE;

        @Override
        public void send(final byte[] frame, final int offset, final int length, final boolean batch) {
            checkOpen();
            checkSize(length);
            sent.add(new Sent(Arrays.copyOfRange(frame, offset, offset + length), new byte[0], batch, false));
        }

        @Override
        public void send(final byte[] head, final int headLength, final ByteBuffer tail, final boolean batch) {
            checkOpen();
            checkSize(headLength + tail.remaining());
            final byte[] t = new byte[tail.remaining()];
            tail.duplicate().get(t);
            sent.add(new Sent(Arrays.copyOf(head, headLength), t, batch, true));
        }

        private void checkSize(final int length) {
            if (length > maxFrame) {
                throw new IllegalArgumentException(
                        "A message of " + length + " bytes cannot be sent: at most " + maxFrame + " are accepted");
            }
        }

        private void checkOpen() {
            if (!open) {
                throw new IllegalStateException("the link to " + PEER_ID + " is closed");
            }
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close(final String reason) {
            closes.add(reason);
            if (open) {
                open = false;
                handler.closed(this, reason);
            }
        }
    }

    /** The default settings, without spinning, with {@code callTimeout} as the call deadline (zero: none). */
    static RuntimeSettings settings(final Duration callTimeout) {
        final CoreConfig defaults = CoreConfig.builder().build();
        return new RuntimeSettings(
                0,
                RuntimeSettings.SynchronousCalls.ALLOW,
                callTimeout,
                defaults.connectTimeout(),
                CoreConfig.CALL_TIMEOUT_PROP_NAME,
                CoreConfig.BIND_ADDRESS_PROP_NAME,
                true);
    }

    /** This runtime, with no active object at all: every body asked for is missing. */
    static class NoObjects implements LocalRuntime {
        final RuntimeSettings settings = PeerTest.settings(Duration.ZERO);
        final List<Long> bodiesAsked = new ArrayList<>();
        final RuntimeMeters meters = new RuntimeMeters(true, () -> 0, "rt-test", List::of);

        @Override
        public RuntimeMeters meters() {
            return meters;
        }

        @Override
        public String id() {
            return LOCAL_ID;
        }

        @Override
        public RuntimeSettings settings() {
            return settings;
        }

        @Override
        public SerializationConfig wireConfig() {
            return WIRE;
        }

        @Override
        public Body body(final long objectId) {
            bodiesAsked.add(objectId);
            return null;
        }

        @Override
        public Object newActive(final String className, final Object[] args, final String nodeName) {
            throw new UnsupportedOperationException("no objects are made in this test");
        }

        @Override
        public Object registered(final String name) {
            return null;
        }
    }

    static final class NoTransport implements Transport {
        @Override
        public String listen(final LinkHandler handler) {
            return "127.0.0.1:7001";
        }

        @Override
        public Link connect(
                final String address,
                final String expectedRuntimeId,
                final LinkHandler handler,
                final Duration timeout) {
            throw new IllegalStateException("this test makes no new links (to " + address + ")");
        }

        @Override
        public void close() {}
    }

    /** What an endpoint received, copied during the call as its views are valid only then. */
    record Delivery(
            EndpointAddress from, byte[] header, byte[] payload, boolean headerReadOnly, boolean payloadReadOnly) {}

    private final NoObjects runtime = new NoObjects();
    private final FakeLink link = new FakeLink();
    private Remoting remoting;
    private final EndpointTable endpoints = new EndpointTable(LOCAL_ID, () -> remoting, () -> "127.0.0.1:7001");
    /** The other runtime's side of the connection; it may send a class this one refuses. */
    private final CodecSession remote =
            new CodecSession(WIRE.toBuilder().allowClass(Forbidden.class).build());

    private Peer peer;

    @BeforeEach
    void link() {
        remoting = new Remoting(runtime, new NoTransport(), endpoints);
        link.handler = remoting;
        remoting.opened(link);
        peer = remoting.peer(PEER_ID, PEER_ADDRESS);
    }

    /**
     * A peer alive but silent: with a call deadline, the unanswered call fails with a CallTimeoutException naming
     * the call, the peer and the setting; the call answered in time keeps its value; the late reply is dropped.
     */
    @Test
    void shouldFailACallUnansweredPastTheCallDeadlineAndDropItsLateReply() throws Exception {
        // Long enough that the answered call's reply, handed over right after the calls, always comes first, even
        // when this thread is descheduled for a while on a loaded machine (50 ms was not).
        final RuntimeSettings withDeadline = settings(Duration.ofSeconds(1));
        final NoObjects here = new NoObjects() {
            @Override
            public RuntimeSettings settings() {
                return withDeadline;
            }
        };
        final Remoting[] holder = new Remoting[1];
        final Remoting r = new Remoting(
                here, new NoTransport(), new EndpointTable(LOCAL_ID, () -> holder[0], () -> "127.0.0.1:7001"));
        holder[0] = r;
        try {
            final FakeLink silent = new FakeLink();
            silent.handler = r;
            r.opened(silent);
            final Peer p = r.peer(PEER_ID, PEER_ADDRESS);
            final FutureState answered = p.call(7, 1, new Object[0], false, () -> "Solver.step on Solver#7");
            final FutureState unanswered = p.call(7, 2, new Object[0], false, () -> "Solver.hang on Solver#7");
            final byte[] reply = frame(Frames.REPLY, 1, o -> {
                o.writeByte(1);
                remote.encoder().encode("stepped", o);
            });
            p.received(reply, 0, reply.length);
            final CallTimeoutException e = assertThrows(CallTimeoutException.class, () -> unanswered.await(Spin.NONE));
            assertTrue(
                    e.getMessage().contains("Solver.hang on Solver#7")
                            && e.getMessage().contains(PEER)
                            && e.getMessage().contains("1000 ms")
                            && e.getMessage().contains(CoreConfig.CALL_TIMEOUT_PROP_NAME),
                    e.getMessage());
            final byte[] late = frame(Frames.REPLY, 2, o -> {
                o.writeByte(1);
                remote.encoder().encode("too late", o);
            });
            p.received(late, 0, late.length);
            assertThrows(
                    CallTimeoutException.class, () -> unanswered.await(Spin.NONE), "the late reply changes nothing");
            assertEquals("stepped", answered.await(Spin.NONE));
            assertTrue(silent.open, "the link stays: the peer is alive, only that call is given up");
        } finally {
            r.close();
        }
    }

    // --- One-way failures a peer reports ---

    private byte[] oneWayFailed(final String call, final RemoteFailure rf) {
        return frame(Frames.ONE_WAY_FAILED, 0, o -> {
            remote.encoder().encode(call, o);
            remote.encoder().encode(rf, o);
        });
    }

    /**
     * What a peer reports of a one-way call is told to the listeners away from the thread reading the link: a
     * listener's Error drops nothing; the call's text cannot forge log lines; a trace of any length is cut.
     */
    @Test
    void aReportedOneWayFailureCannotHurtTheLinkOrTheLog() throws InterruptedException {
        final FutureState pending = peer.call(1, 0, new Object[0], false, () -> "Solver.step on Solver#1");
        final LinkedBlockingQueue<OneWayFailure> told = new LinkedBlockingQueue<>();
        final String[] deep = new String[100_000];
        Arrays.fill(deep, "a.B|c|D.java|1");
        try (Subscription s = ActiveObjects.onOneWayFailure(f -> {
            told.add(f);
            throw new AssertionError("a listener's own failure");
        })) {
            receive(oneWayFailed(
                    "Solver.poke on Solver#1\n[main] WARN forged line",
                    new RemoteFailure("java.lang.IllegalStateException", "boom", deep, null)));
            final OneWayFailure f = told.poll(30, TimeUnit.SECONDS);
            assertTrue(f != null, "told");
            assertEquals("Solver.poke on Solver#1?[main] WARN forged line", f.call(), "one line in the log");
            assertEquals(RemoteFailure.MAX_FRAMES, f.cause().getStackTrace().length, "the trace is cut");
        }
        assertTrue(link.closes.isEmpty() && !pending.isDone(), "the link stays and the pending call waits on");
    }

    // --- Helpers: frames in, frames out ---

    private byte[] frame(final byte kind, final long id, final Consumer<TroupeOutput> body) {
        final TroupeOutput o = remote.encoder().newOutput();
        o.writeByte(kind);
        o.writeLong(id);
        body.accept(o);
        return o.toBytes();
    }

    private void receive(final byte[] frame) {
        peer.received(frame, 0, frame.length);
    }

    private void receiveOutcome(final byte kind, final long id, final Object value) {
        receive(frame(kind, id, o -> {
            o.writeByte(1);
            remote.encoder().encode(value, o);
        }));
    }

    private void receiveFailure(final byte kind, final long id, final Throwable t) {
        receive(frame(kind, id, o -> {
            o.writeByte(0);
            remote.encoder().encode(RemoteFailure.of(t), o);
        }));
    }

    private byte[] callFrame(final long callId, final long objectId, final Object... args) {
        return frame(Frames.CALL, callId, o -> {
            o.writeLong(objectId);
            o.writeInt(0);
            remote.encoder().encode(args, o);
        });
    }

    /** A one-way call of {@code method}, without arguments, on {@code objectId}. */
    private byte[] methodCall(final long objectId, final int method) {
        return frame(Frames.CALL, 0, o -> {
            o.writeLong(objectId);
            o.writeInt(method);
            remote.encoder().encode(new Object[0], o);
        });
    }

    /** The one frame sent since the last look. */
    private Sent sentFrame() {
        assertEquals(1, link.sent.size(), "frames sent");
        return link.sent.removeFirst();
    }

    /** The oldest frame sent and not yet looked at. */
    private Sent nextSent() {
        assertFalse(link.sent.isEmpty(), "a frame was sent");
        return link.sent.removeFirst();
    }

    private static ByteBuffer le(final byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Decodes, as the remote side, the message that fills {@code frame} from {@code at}. */
    private Object decodeFrom(final byte[] frame, final int at) {
        final TroupeInput in = new TroupeInput(frame, at, frame.length - at);
        final Object value = remote.decoder().decode(in);
        assertEquals(0, in.remaining(), "bytes after the message");
        return value;
    }

    /** Checks an outcome frame's kind and id, and returns its failure as the remote side reads it. */
    private RemoteFailure sentFailure(final byte kind, final long id) {
        final Sent s = sentFrame();
        assertFalse(s.batch(), "an answer leaves at once");
        final byte[] b = s.bytes();
        assertEquals(kind, b[0]);
        assertEquals(id, le(b).getLong(1));
        assertEquals(0, b[9], "ok flag of a failure");
        return assertInstanceOf(RemoteFailure.class, decodeFrom(b, 10));
    }

    private static Throwable failureOf(final FutureState f) {
        assertTrue(f.isDone(), "settled");
        assertTrue(f.failure() != null, "failed");
        return f.failure();
    }

    private static void assertPeerFailed(final Throwable t, final String reason) {
        final PeerFailedException e = assertInstanceOf(PeerFailedException.class, t);
        assertEquals(PEER, e.peer());
        assertEquals("Peer " + PEER + " failed: " + reason, e.getMessage());
    }

    // --- Calls out, replies in ---

    @Test
    void aCallFrameHoldsItsFieldsLittleEndianThenTheArgumentsAndItsReplyCompletesTheFuture() {
        final Object[] args = {"step", 42, new Point(1, 2)};
        final FutureState f = peer.call(0x0102030405060708L, 3, args, false, () -> "Solver.step on Solver#7");

        final Sent s = sentFrame();
        assertFalse(s.batch(), "the caller waits for the reply: the frame leaves at once");
        assertFalse(s.gathered());
        final byte[] b = s.bytes();
        assertEquals(Frames.CALL, b[0]);
        assertArrayEquals(new byte[] {1, 0, 0, 0, 0, 0, 0, 0}, Arrays.copyOfRange(b, 1, 9), "call id 1");
        assertArrayEquals(new byte[] {8, 7, 6, 5, 4, 3, 2, 1}, Arrays.copyOfRange(b, 9, 17), "object id");
        assertArrayEquals(new byte[] {3, 0, 0, 0}, Arrays.copyOfRange(b, 17, 21), "method");
        assertArrayEquals(args, (Object[]) decodeFrom(b, CALL_ARGS_AT));
        assertEquals(b.length, remoting.bytesSent(), "the frame counts as sent");
        assertFalse(f.isDone());

        final FutureState g = peer.call(9, 0, new Object[0], false, () -> "Solver.rest on Solver#9");
        final byte[] c = sentFrame().bytes();
        assertEquals(2, le(c).getLong(1), "call ids follow each other");
        assertArrayEquals(new Object[0], (Object[]) decodeFrom(c, CALL_ARGS_AT));

        receiveOutcome(Frames.REPLY, 1, new Point(3, 4));
        assertEquals(new Point(3, 4), f.await(Spin.NONE));
        assertFalse(g.isDone(), "a reply settles its own call only");
        receiveOutcome(Frames.REPLY, 2, "rested");
        assertEquals("rested", g.await(Spin.NONE));
        assertTrue(link.sent.isEmpty(), "a reply is not answered");
        assertTrue(link.closes.isEmpty());
    }

    /**
     * An argument that can never be sent fails the call on the caller's side, saying why and where: no frame leaves,
     * and the next call, with the same classes, is read by the peer (its class table holds nothing of the refused).
     */
    @Test
    void shouldRefuseACallCarryingWhatCanNeverBeSentBeforeAnyFrameLeaves() {
        final Runnable callback = () -> {};
        final NotSendableException lambda = assertThrows(
                NotSendableException.class,
                () -> peer.call(
                        7,
                        1,
                        new Object[] {new Parcel(new Point(1, 2), callback)},
                        false,
                        () -> "Solver.step on Solver#7"));
        assertEquals(
                "Parcel.content is a lambda (" + callback.getClass().getName() + "): lambdas cannot be sent;"
                        + " send an active object, or an object of a named class whose package is allowed (it need not be"
                        + " Serializable)",
                lambda.getMessage());
        final NotSendableException thread = assertThrows(
                NotSendableException.class,
                () -> peer.call(
                        7,
                        2,
                        new Object[] {new Parcel(new Point(1, 2), new Thread(() -> {}))},
                        true,
                        () -> "Solver.set on Solver#7"));
        assertEquals(
                "Parcel.content (java.lang.Thread) is a local resource and cannot be sent: create it where it"
                        + " is used, or send an active object that holds it",
                thread.getMessage());
        assertEquals(List.of(), link.sent, "nothing sent");

        final FutureState f = peer.call(
                7, 1, new Object[] {new Parcel(new Point(3, 4), "fine")}, false, () -> "Solver.step on Solver#7");
        final byte[] b = nextSent().bytes();
        assertArrayEquals(new Object[] {new Parcel(new Point(3, 4), "fine")}, (Object[]) decodeFrom(b, CALL_ARGS_AT));
        receiveOutcome(Frames.REPLY, le(b).getLong(1), "stepped");
        assertEquals("stepped", f.await(Spin.NONE));
        assertTrue(link.closes.isEmpty());
    }

    @Test
    void shouldSayHowToAllowTheClassOfAProxyAPeerSent() {
        final TroupeException e = assertThrows(TroupeException.class, () -> remoting.proxyType("org.acme.pi.Worker"));
        assertEquals(
                "A peer sent a proxy of org.acme.pi.Worker, which is not allowed here; allow its package:"
                        + " -Dtroupe.serialization.allowedPackages=org.acme.pi (with bin/deploy:"
                        + " JAVA_OPTS=-Dtroupe.serialization.allowedPackages=org.acme.pi bin/deploy ...), or in code"
                        + " SerializationConfig.Builder.allowPackage(\"org.acme.pi\")",
                e.getMessage());
    }

    /** The arguments of the call frame sent next, which must have {@code callId}; decoded to keep in step. */
    private Object[] sentCall(final long callId) {
        final byte[] b = nextSent().bytes();
        assertEquals(Frames.CALL, b[0]);
        assertEquals(callId, le(b).getLong(1));
        return (Object[]) decodeFrom(b, CALL_ARGS_AT);
    }

    @Test
    void aFailedReplyFailsTheFutureWithTheCalleesException() {
        final FutureState f = peer.call(7, 1, new Object[] {-1}, false, () -> "Solver.step on Solver#7");
        final FutureState g = peer.call(7, 2, new Object[] {0}, false, () -> "Solver.solve on Solver#7");
        sentCall(1);
        sentCall(2);

        receiveFailure(Frames.REPLY, 1, new IllegalArgumentException("step must be positive, not -1"));
        final IllegalArgumentException rebuilt = assertThrows(
                IllegalArgumentException.class, () -> f.await(Spin.NONE), "a JDK exception is rebuilt as itself");
        assertEquals("step must be positive, not -1", rebuilt.getMessage());
        assertEquals(
                PeerTest.class.getName(), rebuilt.getStackTrace()[0].getClassName(), "with the callee's stack trace");

        receiveFailure(Frames.REPLY, 2, new SolverBroke("matrix is singular"));
        final CallFailedException named = assertThrows(
                CallFailedException.class,
                () -> g.await(Spin.NONE),
                "a class this runtime does not allow is named, not made");
        assertEquals(SolverBroke.class.getName(), named.remoteClassName());
        assertEquals(
                "Solver.solve on Solver#7 threw " + SolverBroke.class.getName() + ": matrix is singular",
                named.getMessage());
        assertTrue(link.sent.isEmpty());
        assertTrue(link.closes.isEmpty());
    }

    @Test
    void aResultThatCannotBeSentBackIsBlamedOnTheResultNotOnTheMethod() {
        // As the callee: the method returned a class this runtime may not send.
        peer.reply(5, new Forbidden("a thing"), null);
        final RemoteFailure sent = sentFailure(Frames.REPLY, 5);

        // As the caller, reading that failure as the reply to its own call.
        final FutureState f = peer.call(7, 1, new Object[0], false, () -> "Sink.giveThing on Sink#1");
        sentCall(1);
        receive(frame(Frames.REPLY, 1, o -> {
            o.writeByte(0);
            remote.encoder().encode(sent, o);
        }));
        final CallFailedException e = assertThrows(CallFailedException.class, () -> f.await(Spin.NONE));
        assertTrue(
                e.getMessage()
                        .startsWith("the result of Sink.giveThing on Sink#1 could not be sent back: "
                                + ClassNotAllowedException.class.getName() + ": "),
                e.getMessage());
        assertTrue(e.getMessage().contains(Forbidden.class.getName()), "names the class: " + e.getMessage());
        assertEquals(ClassNotAllowedException.class.getName(), e.remoteClassName());
        final CallFailedException cause = assertInstanceOf(CallFailedException.class, e.getCause());
        assertEquals(ClassNotAllowedException.class.getName(), cause.remoteClassName());
        assertTrue(
                cause.getMessage().startsWith("the encoding of the result of Sink.giveThing on Sink#1 threw "),
                "the encoding failure, with the callee's stack trace, is the cause: " + cause.getMessage());
        assertTrue(link.closes.isEmpty());
    }

    @Test
    void anErrorThrownByTheCalleeIsNamedNotRethrown() {
        final FutureState f = peer.call(7, 1, new Object[0], false, () -> "Solver.step on Solver#7");
        sentCall(1);
        receiveFailure(Frames.REPLY, 1, new OutOfMemoryError("Java heap space"));
        final CallFailedException named = assertThrows(
                CallFailedException.class,
                () -> f.await(Spin.NONE),
                "an Error from another JVM must not unwind this one as if it were its own");
        assertEquals(OutOfMemoryError.class.getName(), named.remoteClassName());
        assertEquals("Solver.step on Solver#7 threw java.lang.OutOfMemoryError: Java heap space", named.getMessage());
        assertEquals(PeerTest.class.getName(), named.getStackTrace()[0].getClassName(), "the callee's stack trace");
    }

    @Test
    void aProxyOfAJdkClassIsRefusedAndOfAJdkInterfaceMade() {
        // A peer with its own class table, as a hostile runtime would have, that may send remote references.
        final CodecSession hostile =
                new CodecSession(WIRE.toBuilder().allowClass(RemoteRef.class).build());
        final FutureState thread = peer.call(7, 1, new Object[0], false, () -> "Solver.worker on Solver#7");
        final FutureState list = peer.call(7, 2, new Object[0], false, () -> "Solver.rows on Solver#7");
        sentCall(1);
        sentCall(2);
        for (final long id : new long[] {1, 2}) {
            final String type = id == 1 ? Thread.class.getName() : List.class.getName();
            final TroupeOutput o = hostile.encoder().newOutput();
            o.writeByte(Frames.REPLY);
            o.writeLong(id);
            o.writeByte(1);
            hostile.encoder()
                    .encode(
                            new RemoteRef(
                                    RemoteRef.FUTURE, PEER_ID, PEER_ADDRESS, 40 + id, type, false, null, null, null),
                            o);
            receive(o.toBytes());
        }
        final Throwable refused = failureOf(thread);
        assertTrue(
                refused.getMessage().contains("java.lang.Thread")
                        && refused.getMessage().contains("interface"),
                refused.getMessage());
        assertTrue(list.isDone());
        assertInstanceOf(List.class, list.await(Spin.NONE), "a future of an interface is a proxy of it");
        assertTrue(link.closes.isEmpty(), "the link stays: the reply was read whole");
    }

    /** An active object whose methods say which thread ran them. */
    public static class Guarded {
        public String where() {
            return Thread.currentThread().getName();
        }

        @Immediate
        public String whereNow() {
            return Thread.currentThread().getName();
        }
    }

    @Test
    void theCalleesAnnotationAloneDecidesWhetherACallRunsBesideTheBodysThread() throws Exception {
        final Body body = linkWithObject5(new Guarded());
        try {
            final MethodTable table = MethodTable.of(Guarded.class);
            assertEquals("Guarded#5", callAndReply(3, table.indexOf("where")), "served by the body's own thread");
            assertFalse(
                    "Guarded#5".equals(callAndReply(4, table.indexOf("whereNow"))),
                    "an @Immediate method runs at once, beside the body's thread");
        } finally {
            body.terminate();
        }
    }

    /**
     * A call passing on a pending future fails to encode after the future was written: the frame is never sent,
     * so the future's value is never pushed (the peer would hold it, waiting for a future it never got).
     */
    @Test
    void shouldPushNothingForAFuturePassedOnInAFrameThatWasNotSent() {
        final FutureState pending = new FutureState(() -> "Solver.step on Solver#1");
        final Object future = CallResults.futureProxy(pending, Runnable.class, Spin.NONE);
        assertThrows(
                RuntimeException.class,
                () -> peer.call(7, 1, new Object[] {future, new Forbidden("not allowed here")}, false, () -> "call"));
        assertEquals(List.of(), link.sent, "nothing sent");
        pending.complete(null);
        assertEquals(List.of(), link.sent, "no value pushed for the future of the frame never sent");
        final FutureState sentPending = new FutureState(() -> "Solver.step on Solver#2");
        peer.call(
                7,
                1,
                new Object[] {CallResults.futureProxy(sentPending, Runnable.class, Spin.NONE)},
                false,
                () -> "call");
        link.sent.clear();
        sentPending.complete(null);
        assertEquals(1, link.sent.size(), "the value of a future passed on in a frame sent is pushed");
        assertEquals(Frames.FUTURE_VALUE, link.sent.get(0).head()[0]);
    }

    /**
     * A runtime reached at different addresses by different peers (bound to a wildcard) names itself, in a reference
     * it sends, with the address it announced on that link: the one this peer reaches it at, not its default.
     */
    @Test
    void shouldNameThisRuntimeInAReferenceByTheAddressItAnnouncedOnTheLink() {
        link.local = "10.213.1.1:5000";
        final FutureState pending = new FutureState(() -> "Solver.step on Solver#1");
        peer.call(
                7, 1, new Object[] {CallResults.futureProxy(pending, Runnable.class, Spin.NONE)}, false, () -> "call");
        final byte[] b = sentFrame().bytes();
        final CodecSession seer =
                new CodecSession(WIRE.toBuilder().allowClass(RemoteRef.class).build());
        final Object[] args =
                seer.decoder().decode(new TroupeInput(b, CALL_ARGS_AT, b.length - CALL_ARGS_AT), Object[].class);
        final RemoteRef ref = (RemoteRef) args[0];
        assertEquals(LOCAL_ID, ref.runtimeId());
        assertEquals("10.213.1.1:5000", ref.address(), "not the runtime's default, " + remoting.listen());
    }

    /**
     * A third runtime this one reaches on loopback is on this host: to a peer on another host, a reference to it
     * names this host's address on their link (its own port), never loopback, which would be the peer's own host.
     */
    @Test
    void shouldNeverPassOnALoopbackAddressToAPeerOnAnotherHost() {
        final Object third = remoting.proxyFor(new RemoteRef(
                RemoteRef.STUB, "rt-third", "127.0.0.1:4700", 9, Guarded.class.getName(), false, null, null, "n"));
        final CodecSession seer =
                new CodecSession(WIRE.toBuilder().allowClass(RemoteRef.class).build());
        for (final String[] local :
                new String[][] {{"10.213.1.1:5000", "10.213.1.1:4700"}, {"127.0.0.1:5000", "127.0.0.1:4700"}}) {
            link.local = local[0];
            link.sent.clear();
            peer.call(7, 1, new Object[] {third}, true, () -> "call");
            final byte[] b = sentFrame().bytes();
            final RemoteRef ref = (RemoteRef)
                    seer.decoder().decode(new TroupeInput(b, CALL_ARGS_AT, b.length - CALL_ARGS_AT), Object[].class)[0];
            assertEquals("rt-third", ref.runtimeId());
            assertEquals(local[1], ref.address(), "over a link announced as " + local[0]);
        }
    }

    // --- Quotas: a peer with the secret that hits a bound loses its link; the others are served ---

    @Test
    void shouldCloseTheLinkOfAPeerThatPushesValuesOfFuturesItNeverPassedOn() {
        for (long id = 1; id <= FrameReader.MAX_EARLY_VALUES; id++) {
            receiveOutcome(Frames.FUTURE_VALUE, id, "v");
        }
        assertEquals(List.of(), link.closes, "as many as a value may race its future: kept");
        receiveOutcome(Frames.FUTURE_VALUE, FrameReader.MAX_EARLY_VALUES + 1L, "v");
        assertEquals(1, link.closes.size());
        assertTrue(
                link.closes.get(0).contains("more than " + FrameReader.MAX_EARLY_VALUES + " futures"),
                link.closes.get(0));
    }

    @Test
    void shouldCloseTheLinkOfACallForManyObjectsThatWouldReadItsArgumentsTooOften() {
        final int n = 600;
        final byte[] argument = new byte[500_000]; // 600 reads of 500 kB: 300 MB of decoding from one frame
        receive(frame(Frames.CALL_MANY, 1, o -> {
            o.writeInt(n);
            for (int i = 0; i < n; i++) {
                o.writeLong(100 + i);
            }
            o.writeInt(0);
            remote.encoder().encode(new Object[] {argument}, o);
        }));
        assertEquals(1, link.closes.size());
        assertTrue(
                link.closes.get(0).contains("a call for 600 objects")
                        && link.closes.get(0).contains("256 MiB"),
                link.closes.get(0));
        assertEquals(List.of(), runtime.bodiesAsked, "no object was called");
    }

    /** An immediate method that holds its thread until released. */
    public static class Blocking {
        static final CountDownLatch RELEASE = new CountDownLatch(1);

        @Immediate
        public String hold() throws InterruptedException {
            RELEASE.await();
            return "released";
        }
    }

    @Test
    void shouldCloseTheLinkOfAPeerWithTooManyImmediateCallsRunningAndServeTheOthers() throws Exception {
        final Body body = linkWithObject5(new Blocking());
        final FakeLink other = new FakeLink();
        other.id = "rt-other";
        other.handler = remoting;
        remoting.opened(other);
        try {
            final int hold = MethodTable.of(Blocking.class).indexOf("hold");
            for (long id = 1; id <= ServingLimits.MAX_RUNNING; id++) {
                receive(frame(Frames.CALL, id, o -> {
                    o.writeLong(5);
                    o.writeInt(hold);
                    remote.encoder().encode(new Object[0], o);
                }));
            }
            assertEquals(List.of(), link.closes, "as many as the bound: each runs on its own thread");
            receive(frame(Frames.CALL, ServingLimits.MAX_RUNNING + 1L, o -> {
                o.writeLong(5);
                o.writeInt(hold);
                remote.encoder().encode(new Object[0], o);
            }));
            assertEquals(1, link.closes.size());
            assertTrue(
                    link.closes.get(0).contains("more than " + ServingLimits.MAX_RUNNING + " immediate calls"),
                    link.closes.get(0));
            // Another peer's immediate call is still served, once the held ones are released.
            final CodecSession otherSide = new CodecSession(WIRE);
            final TroupeOutput o = otherSide.encoder().newOutput();
            o.writeByte(Frames.CALL);
            o.writeLong(1);
            o.writeLong(5);
            o.writeInt(hold);
            otherSide.encoder().encode(new Object[0], o);
            final byte[] call = o.toBytes();
            Blocking.RELEASE.countDown();
            remoting.peer("rt-other", PEER_ADDRESS).received(call, 0, call.length);
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (other.sent.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            final TroupeInput in = new TroupeInput(
                    other.sent.get(0).head(), 0, other.sent.get(0).head().length);
            assertEquals(Frames.REPLY, in.readByte());
            assertEquals(1, in.readLong());
            assertEquals(1, in.readByte(), "answered with a value");
            assertEquals("released", otherSide.decoder().decode(in));
        } finally {
            Blocking.RELEASE.countDown();
            body.terminate();
        }
    }

    /** An active object whose first call holds its thread until released: what comes next waits in its queue. */
    public static class Stuck {
        static final CountDownLatch RELEASE = new CountDownLatch(1);

        public void hold() throws InterruptedException {
            RELEASE.await();
        }

        public void tick() {}
    }

    @Test
    void shouldCloseTheLinkOfAPeerThatQueuesMoreRequestsThanItsObjectsServe() throws Exception {
        final Body body = linkWithObject5(new Stuck());
        try {
            final MethodTable table = MethodTable.of(Stuck.class);
            receive(methodCall(5, table.indexOf("hold")));
            final byte[] tick = methodCall(5, table.indexOf("tick"));
            // the same bytes each time: one-way, no new class
            for (int i = 0; i < ServingLimits.MAX_QUEUED_REQUESTS; i++) {
                peer.received(tick, 0, tick.length);
            }
            assertEquals(List.of(), link.closes, "as many as the bound wait in the queue");
            peer.received(tick, 0, tick.length);
            assertEquals(1, link.closes.size());
            assertTrue(
                    link.closes.get(0).contains("more than " + ServingLimits.MAX_QUEUED_REQUESTS + " requests waiting"),
                    link.closes.get(0));
        } finally {
            Stuck.RELEASE.countDown();
            body.terminate();
        }
    }

    /** Links this test's peer to a runtime whose object 5 is {@code target}, served by a started body. */
    private Body linkWithObject5(final Object target) {
        final Body body = new Body(5, target, 0, new Copier(WIRE), ObjectMeters.OFF, () -> {});
        final NoObjects withBody = new NoObjects() {
            @Override
            public Body body(final long objectId) {
                return objectId == 5 ? body : null;
            }
        };
        remoting = new Remoting(withBody, new NoTransport(), endpoints);
        link.handler = remoting;
        remoting.opened(link);
        peer = remoting.peer(PEER_ID, PEER_ADDRESS);
        body.start(target.getClass().getSimpleName() + "#5", null);
        return body;
    }

    /** Receives a call of {@code method} on object 5 and returns the value of its reply. */
    private Object callAndReply(final long callId, final int method) throws InterruptedException {
        receive(frame(Frames.CALL, callId, o -> {
            o.writeLong(5);
            o.writeInt(method);
            remote.encoder().encode(new Object[0], o);
        }));
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (link.sent.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        final Sent reply = sentFrame();
        final TroupeInput in = new TroupeInput(reply.head(), 0, reply.head().length);
        assertEquals(Frames.REPLY, in.readByte());
        assertEquals(callId, in.readLong());
        assertEquals(1, in.readByte(), "answered with a value");
        return remote.decoder().decode(in);
    }

    @Test
    void anOutcomeThatCannotBeSentIsAnsweredWithAFailureThatSaysWhy() {
        link.maxFrame = 400;
        for (final long id : new long[] {9, 10}) {
            if (id == 9) {
                peer.reply(id, "v".repeat(1_000), null);
            } else {
                peer.reply(id, null, new IllegalStateException("w".repeat(1_000)));
            }
            final Sent reply = sentFrame();
            final TroupeInput in = new TroupeInput(reply.head(), 0, reply.head().length);
            assertEquals(Frames.REPLY, in.readByte());
            assertEquals(id, in.readLong());
            assertEquals(0, in.readByte(), "a failure, not silence: the caller would wait for ever");
            final RemoteFailure f =
                    assertInstanceOf(RemoteFailure.class, remote.decoder().decode(in));
            assertTrue(f.message().contains("cannot be sent"), f.message());
        }
        assertTrue(link.closes.isEmpty());
    }

    @Test
    void aReplyForAnUnknownCallIsIgnoredButStillReadSoLaterRepliesDecode() {
        final FutureState f = peer.call(7, 1, new Object[0], false, () -> "Solver.step on Solver#7");
        sentCall(1);

        receiveOutcome(Frames.REPLY, 99, new Point(9, 9)); // defines Point on this connection
        assertFalse(f.isDone(), "not its reply");
        receiveOutcome(Frames.REPLY, 1, new Point(1, 1)); // Point by its id only
        assertEquals(new Point(1, 1), f.await(Spin.NONE));
        receiveOutcome(Frames.REPLY, 1, new Point(2, 2));
        assertEquals(new Point(1, 1), f.await(Spin.NONE), "a second reply to a call changes nothing");
        assertTrue(link.sent.isEmpty(), "nothing answered");
        assertTrue(link.closes.isEmpty(), "the link stays");
        assertTrue(peer.isOpen());
    }

    @Test
    void aReplyWhoseOutcomeCannotBeReadStillSettlesItsCall() {
        final FutureState f = peer.call(7, 1, new Object[0], false, () -> "Solver.step on Solver#7");
        final FutureState g = peer.call(7, 2, new Object[0], false, () -> "Solver.solve on Solver#7");
        sentCall(1);
        sentCall(2);
        // as the transport hands frames over: through the runtime's link handler
        final byte[] truncated = frame(Frames.REPLY, 1, o -> {}); // no ok flag, no value
        remoting.received(link, truncated, 0, truncated.length);
        assertTrue(f.isDone(), "the call the reply named is no longer pending: it must not wait for ever");
        final SerializationException unread = assertInstanceOf(SerializationException.class, failureOf(f));
        assertTrue(
                unread.getMessage()
                        .startsWith("Could not read the outcome of Solver.step on Solver#7 sent by " + PEER + ": "),
                unread.getMessage());

        final byte[] noDescription = frame(Frames.REPLY, 2, o -> {
            o.writeByte(0);
            remote.encoder().encode(null, o);
        });
        remoting.received(link, noDescription, 0, noDescription.length);
        assertTrue(g.isDone(), "a failure sent without its description fails the call all the same");
        assertTrue(
                failureOf(g).getMessage().startsWith("Could not read the outcome of Solver.solve on Solver#7"),
                failureOf(g).getMessage());
        assertTrue(link.closes.isEmpty(), "as for a reply whose value cannot be decoded, the link stays");
        assertTrue(link.sent.isEmpty());
    }

    @Test
    void aOneWayCallHasCallIdZeroAndIsBatched() {
        assertNull(peer.call(0x55L, 4, new Object[] {"tick"}, true, () -> "Clock.tick on Clock#85"));
        final Sent s = sentFrame();
        assertTrue(s.batch(), "nobody waits for it: it may leave with the next frames");
        final byte[] b = s.bytes();
        assertEquals(Frames.CALL, b[0]);
        assertEquals(0, le(b).getLong(1), "call id 0: no reply wanted");
        assertEquals(0x55L, le(b).getLong(9));
        assertEquals(4, le(b).getInt(17));
        assertArrayEquals(new Object[] {"tick"}, (Object[]) decodeFrom(b, CALL_ARGS_AT));

        peer.call(0x55L, 5, new Object[0], false, () -> "Clock.read on Clock#85");
        final Sent two = sentFrame();
        assertFalse(two.batch());
        assertEquals(1, le(two.bytes()).getLong(1), "a one-way call takes no call id");
        decodeFrom(two.bytes(), CALL_ARGS_AT);
    }

    @Test
    void callManySendsOneFrameWithConsecutiveCallIdsAndEachReplySettlesItsOwnFuture() {
        peer.call(1, 0, new Object[0], false, () -> "first");
        sentCall(1);
        final long[] objects = {10, 20, 0x3000000000L};
        final Object[] args = {new Point(5, 6), "shared"};
        final FutureState[] fs = peer.callMany(objects, 6, args, false, i -> () -> "Cell.update on #" + i);
        assertEquals(3, fs.length);

        final Sent s = sentFrame();
        assertFalse(s.batch());
        final byte[] b = s.bytes();
        final ByteBuffer in = le(b);
        assertEquals(Frames.CALL_MANY, in.get());
        assertEquals(2, in.getLong(), "the first call id; the others follow it");
        assertEquals(3, in.getInt(), "count");
        assertEquals(10, in.getLong());
        assertEquals(20, in.getLong());
        assertEquals(0x3000000000L, in.getLong());
        assertEquals(6, in.getInt(), "method");
        assertArrayEquals(args, (Object[]) decodeFrom(b, in.position()), "the arguments, once");

        receiveOutcome(Frames.REPLY, 4, "third");
        receiveOutcome(Frames.REPLY, 2, "first");
        assertFalse(fs[1].isDone());
        receiveOutcome(Frames.REPLY, 3, "second");
        assertEquals("first", fs[0].await(Spin.NONE));
        assertEquals("second", fs[1].await(Spin.NONE));
        assertEquals("third", fs[2].await(Spin.NONE));
    }

    @Test
    void aOneWayCallManyIsBatchedWithCallIdZeroAndCountsAsSent() {
        final FutureState[] fs =
                peer.callMany(new long[] {1, 2}, 0, new Object[] {7}, true, i -> () -> "Cell.poke on #" + i);
        assertSame(FutureState.SENT, fs[0]);
        assertSame(FutureState.SENT, fs[1]);
        final Sent s = sentFrame();
        assertTrue(s.batch());
        final ByteBuffer in = le(s.bytes());
        assertEquals(Frames.CALL_MANY, in.get());
        assertEquals(0, in.getLong());
        assertEquals(2, in.getInt());
    }

    // --- Calls in ---

    @Test
    void aCallForAnObjectThatIsNotHereIsAnsweredWithATerminatedException() {
        receive(callFrame(77, 5, "x"));
        assertEquals(List.of(5L), runtime.bodiesAsked);
        final RemoteFailure rf = sentFailure(Frames.REPLY, 77);
        assertEquals(TerminatedException.class.getName(), rf.className());
        assertEquals("Active object 5 of runtime " + LOCAL_ID + " is terminated", rf.message());
        assertEquals(
                0,
                rf.trace().length,
                "no stack of this runtime's dispatch: a hostile peer's many calls for"
                        + " objects that are not here get small answers");

        receive(callFrame(0, 6, "y"));
        assertEquals(List.of(5L, 6L), runtime.bodiesAsked);
        final byte[] b = sentFrame().bytes();
        assertEquals(Frames.ONE_WAY_FAILED, b[0], "a one-way call that cannot be served is reported to its caller");
        final TroupeInput in = new TroupeInput(b, 9, b.length - 9);
        assertEquals(
                "a one-way call on active object 6 of runtime " + LOCAL_ID,
                remote.decoder().decode(in, String.class));
        final RemoteFailure oneWay = remote.decoder().decode(in, RemoteFailure.class);
        assertEquals(TerminatedException.class.getName(), oneWay.className());
        assertEquals(0, oneWay.trace().length, "small, as the answer to a call");
        assertTrue(link.closes.isEmpty());
    }

    @Test
    void anUndecodableCallIsAnsweredWithAFailureOnlyWhenItWantsAReply() {
        receive(callFrame(78, 5, new Forbidden("two-way")));
        assertTrue(runtime.bodiesAsked.isEmpty(), "nothing dispatched");
        final RemoteFailure rf = sentFailure(Frames.REPLY, 78);
        assertEquals(ClassNotAllowedException.class.getName(), rf.className());
        assertTrue(rf.message().contains(Forbidden.class.getName()), rf.message());

        receive(callFrame(0, 5, new Forbidden("one-way")));
        assertTrue(link.sent.isEmpty(), "a one-way call gets no answer");
        assertTrue(runtime.bodiesAsked.isEmpty());

        receive(callFrame(79, 5, new Point(1, 2)));
        assertEquals(List.of(5L), runtime.bodiesAsked, "the link goes on: the next call is read and dispatched");
        assertEquals(
                TerminatedException.class.getName(),
                sentFailure(Frames.REPLY, 79).className());
        assertTrue(link.closes.isEmpty());
    }

    // --- Futures passed on by the peer ---

    @Test
    void aPushedValueSettlesTheFutureWhetherItComesAfterOrBeforeTheFutureIsKnown() {
        final FutureState late = peer.incomingFuture(7);
        assertFalse(late.isDone());
        receiveOutcome(Frames.FUTURE_VALUE, 7, new Point(7, 7));
        assertEquals(new Point(7, 7), late.await(Spin.NONE));

        receiveOutcome(Frames.FUTURE_VALUE, 8, "came first");
        final FutureState early = peer.incomingFuture(8);
        assertTrue(early.isDone(), "the value waited for its future");
        assertEquals("came first", early.await(Spin.NONE));

        receiveFailure(Frames.FUTURE_VALUE, 9, new IllegalStateException("no solution"));
        final FutureState failed = peer.incomingFuture(9);
        assertEquals(
                "no solution",
                assertInstanceOf(IllegalStateException.class, failureOf(failed)).getMessage());

        final FutureState other = peer.incomingFuture(10);
        receiveOutcome(Frames.FUTURE_VALUE, 11, "not yours");
        assertFalse(other.isDone(), "a value settles the future of its own id only");
        assertTrue(link.sent.isEmpty());
    }

    // --- Frames that end the link ---

    @Test
    void anUnknownFrameKindClosesTheLinkNamingItAndFailsWhatAwaitsThePeer() {
        final FutureState f = peer.call(7, 1, new Object[0], false, () -> "Solver.step on Solver#7");
        sentCall(1);
        receive(frame((byte) 42, 1, o -> o.writeInt(0)));
        assertEquals(List.of("unknown frame kind 42"), link.closes);
        assertPeerFailed(failureOf(f), "unknown frame kind 42");
        assertFalse(peer.isOpen());
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 1000, Integer.MAX_VALUE, 0, -1})
    void aCallManyWhoseCountDoesNotFitItsFrameClosesTheLink(final int count) {
        // two object ids' worth of bytes after the count
        final byte[] b = frame(Frames.CALL_MANY, 1, o -> {
            o.writeInt(count);
            o.writeLong(10);
            o.writeLong(20);
        });
        receive(b);
        assertEquals(List.of("a call for " + count + " objects in a frame of 16 bytes"), link.closes);
        assertTrue(runtime.bodiesAsked.isEmpty(), "nothing dispatched");
        assertTrue(link.sent.isEmpty());
    }

    // --- Endpoint frames ---

    @Test
    void sendEndpointWritesKindIdsHeaderLengthAndHeaderThenGathersThePayload() {
        final ByteBuffer header =
                ByteBuffer.wrap("..tag=3".getBytes(StandardCharsets.US_ASCII)).position(2);
        final ByteBuffer payload =
                ByteBuffer.allocateDirect(6).put(new byte[] {9, 9, 1, 2, 3, 4}).position(2);
        peer.sendEndpoint(0x1122334455667788L, 0x0A0B0C0D0E0F1011L, header, payload, true);

        final Sent s = sentFrame();
        assertTrue(s.gathered(), "the payload is not first copied into one array with the head");
        assertTrue(s.batch());
        final byte[] expectedHead = {
            Frames.ENDPOINT,
            (byte) 0x88,
            0x77,
            0x66,
            0x55,
            0x44,
            0x33,
            0x22,
            0x11,
            0x11,
            0x10,
            0x0F,
            0x0E,
            0x0D,
            0x0C,
            0x0B,
            0x0A,
            5,
            0,
            't',
            'a',
            'g',
            '=',
            '3'
        };
        assertArrayEquals(expectedHead, s.head());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, s.tail(), "the payload from its position to its limit");
        assertEquals(2, header.position(), "the header is not consumed");
        assertEquals(2, payload.position(), "the payload is not consumed");
        assertEquals(Frames.ENDPOINT_PREFIX + 5 + 4, remoting.bytesSent());

        peer.sendEndpoint(1, 2, ByteBuffer.allocate(0), ByteBuffer.allocate(0), false);
        final Sent empty = sentFrame();
        assertFalse(empty.batch());
        assertArrayEquals(
                new byte[] {Frames.ENDPOINT, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}, empty.bytes());
    }

    /** An endpoint frame, little-endian as the sender writes it. */
    private static byte[] endpointFrame(final long to, final long from, final int headerLength, final byte[] rest) {
        return ByteBuffer.allocate(Frames.ENDPOINT_PREFIX + rest.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(Frames.ENDPOINT)
                .putLong(to)
                .putLong(from)
                .putShort((short) headerLength)
                .put(rest)
                .array();
    }

    private List<Delivery> openEndpoint() {
        final List<Delivery> got = new ArrayList<>();
        final EndpointHandler handler = (from, header, payload) -> {
            final byte[] h = new byte[header.remaining()];
            final byte[] p = new byte[payload.remaining()];
            header.duplicate().get(h);
            payload.duplicate().get(p);
            got.add(new Delivery(from, h, p, header.isReadOnly(), payload.isReadOnly()));
        };
        assertEquals(1, endpoints.open("rank-0", handler).address().id());
        return got;
    }

    @Test
    void anEndpointFrameReachesItsEndpointFromThePeerWithReadOnlyViewsOfHeaderAndPayload() {
        final List<Delivery> got = openEndpoint();
        final byte[] frame = endpointFrame(1, 0x0A0B0C0D0E0F1011L, 3, new byte[] {'h', 'd', 'r', 5, 6, 7, 8});
        // the frame in the middle of the reader's buffer, between bytes that belong to no one
        final byte[] buffer = new byte[frame.length + 9];
        Arrays.fill(buffer, (byte) 0x5A);
        System.arraycopy(frame, 0, buffer, 4, frame.length);
        peer.received(buffer, 4, frame.length);

        assertEquals(1, got.size());
        final Delivery d = got.getFirst();
        assertEquals(new EndpointAddress(PEER_ID, PEER_ADDRESS, 0x0A0B0C0D0E0F1011L), d.from());
        assertEquals(PEER_ADDRESS, d.from().runtimeAddress());
        assertArrayEquals(new byte[] {'h', 'd', 'r'}, d.header());
        assertArrayEquals(new byte[] {5, 6, 7, 8}, d.payload(), "the payload ends where the frame does");
        assertTrue(d.headerReadOnly());
        assertTrue(d.payloadReadOnly());

        receive(endpointFrame(1, 3, 0, new byte[0]));
        assertEquals(2, got.size());
        assertArrayEquals(new byte[0], got.get(1).header());
        assertArrayEquals(new byte[0], got.get(1).payload());
        assertTrue(link.closes.isEmpty());
        assertTrue(link.sent.isEmpty());
    }

    @Test
    void anEndpointFrameAnnouncingMoreHeaderThanItHoldsClosesTheLink() {
        final List<Delivery> got = openEndpoint();
        receive(endpointFrame(1, 2, 50, new byte[10]));
        assertEquals(List.of("an endpoint frame announcing a header of 50 bytes in 10"), link.closes);
        assertTrue(got.isEmpty(), "nothing delivered");
    }

    @Test
    void anEndpointFrameTooShortForItsSenderAndHeaderLengthClosesTheLink() {
        final List<Delivery> got = openEndpoint();
        final byte[] b = Arrays.copyOf(endpointFrame(1, 2, 0, new byte[0]), 1 + 8 + 9);
        receive(b);
        assertEquals(List.of("an endpoint frame of 9 bytes after its kind and receiver"), link.closes);
        assertTrue(got.isEmpty());
    }

    // --- The end ---

    @Test
    void whenTheLinkEndsEverythingAwaitingThePeerFailsAndLaterSendsFailTheSameWay() {
        final String reason = "silent for longer than 4000 ms";
        final FutureState call = peer.call(7, 1, new Object[0], false, () -> "Solver.step on Solver#7");
        final FutureState[] many =
                peer.callMany(new long[] {1, 2}, 0, new Object[0], false, i -> () -> "Cell.update on #" + i);
        final FutureState request = peer.request(Frames.LOOKUP, "solver", "looking up solver");
        final FutureState pushed = peer.incomingFuture(3);
        link.sent.clear(); // nothing more is decoded on this connection

        peer.closed(reason);

        assertPeerFailed(failureOf(call), reason);
        assertPeerFailed(failureOf(many[0]), reason);
        assertPeerFailed(failureOf(many[1]), reason);
        assertPeerFailed(failureOf(request), reason);
        assertPeerFailed(failureOf(pushed), reason);
        assertFalse(peer.isOpen());

        assertPeerFailed(
                assertThrows(PeerFailedException.class, () -> peer.call(7, 1, new Object[0], false, () -> "again")),
                reason);
        assertPeerFailed(
                assertThrows(PeerFailedException.class, () -> peer.call(7, 1, new Object[0], true, () -> "one-way")),
                reason);
        assertPeerFailed(
                assertThrows(
                        PeerFailedException.class,
                        () -> peer.callMany(new long[] {1}, 0, new Object[0], false, i -> () -> "many")),
                reason);
        assertPeerFailed(
                assertThrows(PeerFailedException.class, () -> peer.request(Frames.LOOKUP, "solver", "lookup")), reason);
        assertPeerFailed(
                assertThrows(
                        PeerFailedException.class,
                        () -> peer.sendEndpoint(1, 2, ByteBuffer.allocate(1), ByteBuffer.allocate(1), false)),
                reason);
        assertPeerFailed(assertThrows(PeerFailedException.class, () -> peer.registerNode("n")), reason);
        assertPeerFailed(failureOf(peer.incomingFuture(4)), reason);

        peer.reply(5, "too late", null);
        peer.futureValue(6, "too late", null, new AtomicBoolean());
        assertTrue(link.sent.isEmpty(), "nothing reaches the link once it ended");
    }

    @Test
    void aSendOnALinkThatBrokeBeforeThePeerHeardFailsNamingThePeer() {
        link.open = false; // broken under the peer, which has not been told yet
        final PeerFailedException e = assertThrows(
                PeerFailedException.class,
                () -> peer.call(7, 1, new Object[0], false, () -> "Solver.step on Solver#7"));
        assertPeerFailed(e, "the link to " + PEER_ID + " is closed");
        assertPeerFailed(
                assertThrows(
                        PeerFailedException.class,
                        () -> peer.sendEndpoint(1, 2, ByteBuffer.allocate(1), ByteBuffer.allocate(1), false)),
                "the link to " + PEER_ID + " is closed");
        assertEquals(0, remoting.bytesSent());
    }
}
