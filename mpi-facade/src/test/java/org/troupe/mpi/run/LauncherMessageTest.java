package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.mpi.fabric.BlockedCall;
import org.troupe.mpi.fabric.Fabric;

/** The launcher protocol's frames: every message back from its bytes, those bytes pinned, and frames refused. */
class LauncherMessageTest {
    private static final EndpointAddress RANK_0 = new EndpointAddress("runtime-a", "10.0.0.1:4000", 7);
    private static final EndpointAddress RANK_1 = new EndpointAddress("runtime-b", "", 12);

    static Stream<LauncherMessage> everyMessage() {
        return Stream.of(
                new LauncherMessage.Hello(3, RANK_0),
                new LauncherMessage.Done(0, 0, ""),
                new LauncherMessage.Done(2, 1, "java.lang.IllegalStateException: boom"),
                new LauncherMessage.Finalized(1),
                new LauncherMessage.Aborted(0, 3, "rank 0 called Abort(3)"),
                new LauncherMessage.Aborted(2, null, "the JVM of rank 2 holds too much"),
                new LauncherMessage.Exited(4, -2, "Main.main(Main.java:3)"),
                new LauncherMessage.Exited(4, 0, ""),
                new LauncherMessage.Done(1, 1, "java.lang.Error: x\n\tat Main.main(Main.java:3)"),
                new LauncherMessage.Output(1, false, "hello\nworld".getBytes(StandardCharsets.UTF_8)),
                new LauncherMessage.Output(5, true, new byte[] {(byte) 0xff, '\n', 0, (byte) 0xc3}),
                new LauncherMessage.Output(0, false, new byte[0]),
                new LauncherMessage.Table(List.of(RANK_0, RANK_1)),
                new LauncherMessage.Abort("rank 1 failed: java.lang.Error: x"),
                new LauncherMessage.Abort(""),
                new LauncherMessage.Release());
    }

    private static LauncherMessage roundTrip(final LauncherMessage m) {
        return LauncherMessage.decode(m.header(), m.payload());
    }

    @ParameterizedTest
    @MethodSource("everyMessage")
    void everyMessageIsDecodedFromItsOwnFrame(final LauncherMessage m) {
        assertEquals(m, roundTrip(m));
        assertTrue(LauncherMessage.isLauncherMessage(m.header()));
    }

    @Test
    void addressesComeBackWithWhereTheirRuntimeListens() {
        // EndpointAddress.equals leaves the runtime's address out: the ranks dial it, so it must survive too
        final LauncherMessage.Hello hello = (LauncherMessage.Hello) roundTrip(new LauncherMessage.Hello(0, RANK_0));
        assertEquals("10.0.0.1:4000", hello.endpoint().runtimeAddress());
        final LauncherMessage.Table table =
                (LauncherMessage.Table) roundTrip(new LauncherMessage.Table(List.of(RANK_0, RANK_1)));
        assertEquals(
                List.of("10.0.0.1:4000", ""),
                table.ranks().stream().map(EndpointAddress::runtimeAddress).toList());
    }

    @Test
    void theFramesAreTheKindByteAndLinesOfText() {
        assertFrame(1, "3\nruntime-a\t10.0.0.1:4000\t7", new LauncherMessage.Hello(3, RANK_0));
        assertFrame(
                2,
                "runtime-a\t10.0.0.1:4000\t7\nruntime-b\t\t12\n",
                new LauncherMessage.Table(List.of(RANK_0, RANK_1)));
        assertFrame(3, "2\n1\nboom", new LauncherMessage.Done(2, 1, "boom"));
        assertFrame(4, "why", new LauncherMessage.Abort("why"));
        assertFrame(5, "", new LauncherMessage.Release());
        assertFrame(6, "0\n3\nrank 0 called Abort(3)", new LauncherMessage.Aborted(0, 3, "rank 0 called Abort(3)"));
        assertFrame(6, "2\n-\nheld too much", new LauncherMessage.Aborted(2, null, "held too much"));
        assertFrame(7, "1\nout", new LauncherMessage.Output(1, false, "out".getBytes(StandardCharsets.UTF_8)));
        assertFrame(8, "1\nerr", new LauncherMessage.Output(1, true, "err".getBytes(StandardCharsets.UTF_8)));
        assertFrame(9, "4\nfinalized", new LauncherMessage.Finalized(4));
        assertFrame(10, "4\n-1\nMain.main(Main.java:3)", new LauncherMessage.Exited(4, -1, "Main.main(Main.java:3)"));
    }

    private static void assertFrame(final int kind, final String payload, final LauncherMessage m) {
        assertArrayEquals(new byte[] {(byte) kind}, bytes(m.header()), m.toString());
        assertEquals(payload, new String(bytes(m.payload()), StandardCharsets.UTF_8), m.toString());
    }

    @Test
    void aBlockedRankSaysItsCallsAndHowLongTheyHaveLastedByTheLaunchersClock() {
        final long started = System.nanoTime() - TimeUnit.SECONDS.toNanos(3);
        final BlockedCall recv =
                new BlockedCall(2, BlockedCall.Call.RECV, Fabric.ANY_SOURCE, 0, Fabric.ANY_TAG, 5, started);
        final BlockedCall send = new BlockedCall(2, BlockedCall.Call.SEND, 0, 1, 35, 1, started);
        final LauncherMessage.Blocked blocked = new LauncherMessage.Blocked(2, List.of(recv, send));
        final String payload = new String(bytes(blocked.payload()), StandardCharsets.UTF_8);
        assertTrue(payload.matches("2\nRECV\t-2\t0\t-2\t5\t3\\d{3}\nSEND\t0\t1\t35\t1\t3\\d{3}\n"), payload);
        final LauncherMessage.Blocked back = (LauncherMessage.Blocked) roundTrip(blocked);
        assertEquals(2, back.calls().size());
        for (int i = 0; i < 2; i++) {
            final BlockedCall sent = blocked.calls().get(i);
            final BlockedCall got = back.calls().get(i);
            assertEquals(
                    sent,
                    new BlockedCall(
                            got.rank(),
                            got.call(),
                            got.peer(),
                            got.context(),
                            got.tag(),
                            got.elements(),
                            sent.sinceNanos()));
            assertTrue(Math.abs(got.sinceNanos() - started) < TimeUnit.SECONDS.toNanos(1), "began about 3 s ago");
        }
        assertEquals(
                List.of(), ((LauncherMessage.Blocked) roundTrip(new LauncherMessage.Blocked(1, List.of()))).calls());
        for (final String bad : List.of("1\nWAIT\t0\t0\t0\t0\t0\n", "1\nRECV\t0\t0\n", "1\nRECV\tx\t0\t0\t0\t0\n")) {
            final LauncherMessage.MalformedMessageException e = assertThrows(
                    LauncherMessage.MalformedMessageException.class,
                    () -> LauncherMessage.decode(
                            ByteBuffer.wrap(new byte[] {LauncherMessage.BLOCKED}),
                            ByteBuffer.wrap(bad.getBytes(StandardCharsets.UTF_8))));
            assertTrue(e.getMessage().startsWith("malformed launcher message: BLOCKED: "), e.getMessage());
        }
    }

    @Test
    void aFailureIsSentWithItsStackTrace() {
        final LauncherMessage.Done done = new LauncherMessage.Done(0, 1, "first\n\tat second");
        assertEquals(done, roundTrip(done));
    }

    @Test
    void aFrameIsReadWhereItsBuffersStandAndTheyAreLeftThere() {
        final ByteBuffer header = ByteBuffer.wrap(new byte[] {9, LauncherMessage.HELLO, 9})
                .position(1)
                .limit(2);
        final byte[] framed = "xx2\nruntime-a\t10.0.0.1:4000\t7yy".getBytes(StandardCharsets.UTF_8);
        final ByteBuffer payload = ByteBuffer.wrap(framed).position(2).limit(framed.length - 2);
        assertEquals(new LauncherMessage.Hello(2, RANK_0), LauncherMessage.decode(header, payload));
        assertEquals(1, header.position());
        assertEquals(2, payload.position());
    }

    @Test
    void aFabricFrameIsNoLauncherMessage() {
        assertFalse(LauncherMessage.isLauncherMessage(ByteBuffer.allocate(32)));
        assertFalse(LauncherMessage.isLauncherMessage(ByteBuffer.allocate(0)));
    }

    static Stream<Arguments> malformedFrames() {
        return Stream.of(
                Arguments.of(new byte[0], "", "a header of 0 bytes"),
                Arguments.of(new byte[] {1, 0}, "0\nruntime-a\t\t1", "a header of 2 bytes"),
                Arguments.of(new byte[] {99}, "", "unknown kind 99"),
                Arguments.of(new byte[] {0}, "", "unknown kind 0"),
                Arguments.of(new byte[] {LauncherMessage.HELLO}, "", "HELLO: no rank line"),
                Arguments.of(new byte[] {LauncherMessage.HELLO}, "12345678901234\nx\ty\t1", "HELLO: no rank line"),
                Arguments.of(new byte[] {LauncherMessage.HELLO}, "x\nruntime-a\t\t1", "HELLO: the rank 'x'"),
                Arguments.of(new byte[] {LauncherMessage.HELLO}, "-1\nruntime-a\t\t1", "HELLO: the rank '-1'"),
                Arguments.of(new byte[] {LauncherMessage.HELLO}, "\nruntime-a\t\t1", "HELLO: the rank ''"),
                Arguments.of(
                        new byte[] {LauncherMessage.HELLO},
                        "9999999999\nruntime-a\t\t1",
                        "HELLO: the rank '9999999999' is not a number"),
                Arguments.of(new byte[] {LauncherMessage.HELLO}, "0\nruntime-a\t1", "HELLO: an address of 2 fields"),
                Arguments.of(
                        new byte[] {LauncherMessage.HELLO},
                        "0\nruntime-a\t\tseven",
                        "HELLO: the endpoint number 'seven'"),
                Arguments.of(
                        new byte[] {LauncherMessage.TABLE},
                        "runtime-a\t\t1\nbroken\n",
                        "TABLE: an address of 1 fields"),
                Arguments.of(new byte[] {LauncherMessage.DONE}, "0\n0", "DONE: truncated after its status"),
                Arguments.of(new byte[] {LauncherMessage.DONE}, "0\nfailed\n", "DONE: the status 'failed'"),
                Arguments.of(new byte[] {LauncherMessage.FINALIZED}, "0\n", "FINALIZED: '', not 'finalized'"),
                Arguments.of(new byte[] {LauncherMessage.EXITED}, "0\n", "EXITED: the status ''"),
                Arguments.of(new byte[] {LauncherMessage.OUTPUT}, "out", "OUTPUT: no rank line"),
                Arguments.of(new byte[] {LauncherMessage.RELEASE}, "now", "RELEASE: a payload of 3 bytes, not 0"));
    }

    @ParameterizedTest
    @MethodSource("malformedFrames")
    void aMalformedFrameIsRefusedSayingWhatIsWrong(final byte[] header, final String payload, final String why) {
        final LauncherMessage.MalformedMessageException e = assertThrows(
                LauncherMessage.MalformedMessageException.class,
                () -> LauncherMessage.decode(
                        ByteBuffer.wrap(header), ByteBuffer.wrap(payload.getBytes(StandardCharsets.UTF_8))));
        assertTrue(e.getMessage().startsWith("malformed launcher message: " + why), e.getMessage());
    }

    private static byte[] bytes(final ByteBuffer b) {
        final byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return bytes;
    }
}
