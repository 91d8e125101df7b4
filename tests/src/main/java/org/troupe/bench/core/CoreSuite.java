package org.troupe.bench.core;

import static org.troupe.bench.BenchFailure.check;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.BusyLoad;
import org.troupe.bench.QuickHarness;
import org.troupe.bench.RemoteNode;
import org.troupe.bench.ResultSink;
import org.troupe.bench.Suite;
import org.troupe.core.ActiveObjects;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.internal.HopTrace;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.serialization.SerializationConfig;

/**
 * Calls on active objects against the usual alternatives, side by side in one run (see {@link QuickHarness}):
 * <ul>
 *   <li>{@code call-rtt-local}: an asynchronous call and the touch of its future, in this JVM; against an
 *       {@link ExecutorService} submit + get of the same work, and two threads spinning on volatile fields.</li>
 *   <li>{@code call-rtt-remote}: the same with the object in a node JVM on this machine; against Java RMI (same
 *       interface shape) and a one-byte round trip over busy-polled non-blocking sockets.</li>
 *   <li>{@code call-border-list-remote}: a call whose argument is a 1000-node border list; against RMI.</li>
 *   <li>{@code oneway-throughput-remote}: bursts of one-way calls, each burst closed by a call that waits;
 *       against RMI's void calls.</li>
 *   <li>{@code call-hops-remote}: where the time of {@code call-rtt-remote}'s calls goes, hop by hop (encode and
 *       write, wire and read, decode, dispatch and the body's wake-up, the method, the same back, and the caller's
 *       resumption), stamped by both JVMs on the host's monotonic clock: one row per hop with {@code "hop"}, its
 *       mean ({@code ns_per_op}), median and 99th percentile.</li>
 *   <li>{@code call-rtt-local-loaded}, {@code call-rtt-remote-loaded}: {@code call-rtt-local} against the executor
 *       and {@code call-rtt-remote} against RMI, while another JVM keeps two busy threads per core spinning
 *       ({@link BusyLoad}): how waits fare when the cores are shared.</li>
 *   <li>{@code endpoint-rtt-local}: a one-byte endpoint frame answered by a one-byte frame, in this JVM (the
 *       handlers run on the sender's thread); against the volatile spin.</li>
 *   <li>{@code endpoint-rtt-remote}: the same with the answering endpoint in the node JVM, where a thread spins
 *       driving progress, as a rank blocked in a receive (and parks after 1 ms without a frame, as the socket
 *       echo blocks, so neither spins while the other is measured); against the one-byte socket round trip.</li>
 *   <li>{@code endpoint-bw-remote}: a 4 MiB frame to the node JVM, which copies it into its own buffer and answers
 *       with one byte; the row also carries {@code MBps}, payload megabytes (10^6 bytes) per second.</li>
 *   <li>{@code frame-auth-rtt}, {@code frame-auth-bw}: what authenticating frames costs
 *       ({@code troupe.core.authenticateFrames}), both settings side by side in this JVM: a one-byte frame, and a
 *       4 MiB one (with {@code MBps}), each answered by one byte, over a loopback link between two transports of
 *       this JVM, {@code tagged} against {@code bare}. The answer is sent from whichever thread reads the frame,
 *       the sender's own as it waits, most often.</li>
 * </ul>
 * Every implementation is checked to give the right answer before it is timed. Both modes use the warmed
 * harness (JMH cannot time calls into another JVM it does not start); the full mode warms longer and takes
 * more batches.
 *
 * <p>Each row is {@code {"suite":"core","case","impl","ns_per_op","ops_per_s","p50_ns","p99_ns"}}, all per call:
 * <ul>
 *   <li>{@code ns_per_op}: the mean time of one call, back to back on one thread: the median, over the timed
 *       batches, of a batch's time divided by its calls. The clock is read only at a batch's ends.</li>
 *   <li>{@code ops_per_s}: its inverse, the calls one thread makes per second.</li>
 *   <li>{@code p50_ns}, {@code p99_ns}: the median and 99th percentile (nearest rank) of one op's time, each op
 *       timed on its own in the harness's sampling batches, pooled over all of them. Each such time includes
 *       one clock read, about 20 ns, so for a steady op {@code p50_ns} is about {@code ns_per_op} plus that.
 *       Not for {@code spin}: a clock read between two of its round trips slows the hand-off by about 100 ns
 *       (in a timed batch too, when tried), while as much plain work costs it nothing; its percentiles are those
 *       of spaced round trips, its {@code ns_per_op} that of back-to-back ones.</li>
 * </ul>
 * Where an op makes several calls ({@code oneway-throughput-remote}: a burst of {@value #BURST} one-way calls,
 * closed by one call that waits and is billed to the burst), every figure is the op's divided by
 * {@value #BURST}: the percentiles are then of a burst's mean per call, so they show how bursts differ, not how
 * long one one-way call takes (its caller does not wait for it).
 */
public final class CoreSuite implements Suite {
    static final String LOCAL = "call-rtt-local";
    static final String REMOTE = "call-rtt-remote";
    static final String BORDER = "call-border-list-remote";
    static final String ONEWAY = "oneway-throughput-remote";
    static final String HOPS = "call-hops-remote";
    static final String LOCAL_LOADED = "call-rtt-local-loaded";
    static final String REMOTE_LOADED = "call-rtt-remote-loaded";
    /** How long a loaded case's busy load may run at most, should the case hang. */
    private static final long LOAD_MAX_SECONDS_QUICK = 120;

    private static final long LOAD_MAX_SECONDS_FULL = 600;
    /** Calls traced by {@value #HOPS}, after its warm-up. */
    private static final int TRACED_CALLS = 20_000;
    /** The hops {@value #HOPS} prints: from one stamp to the next, then the whole round trip. */
    private static final String[] HOP_NAMES = {
        "encode+write",
        "wire+read",
        "decode",
        "dispatch+wake-up",
        "method",
        "reply encode+write",
        "reply wire+read",
        "reply decode+settle",
        "caller resumes"
    };

    static final String ENDPOINT_LOCAL = "endpoint-rtt-local";
    static final String ENDPOINT_REMOTE = "endpoint-rtt-remote";
    static final String ENDPOINT_BW = "endpoint-bw-remote";
    static final String FRAME_RTT = "frame-auth-rtt";
    static final String FRAME_BW = "frame-auth-bw";
    /** The frames of {@value #ENDPOINT_BW}. */
    private static final int BW_FRAME_BYTES = 4 << 20;

    private static final int BORDER_LENGTH = 1000;
    /** One-way calls per timed op; the op ends with a call that waits for all of them to be served. */
    private static final int BURST = 1000;

    static final String PACKAGE = CoreSuite.class.getPackageName();

    private record Settings(long warmupNanos, long batchNanos, long sampleBatchNanos, int batches) {}

    /**
     * Quick: 1 s of warm-up per implementation in this JVM, 4 s across two (both JVMs must compile the whole path,
     * and a shorter warm-up times the compilers), then 7 rounds of a 0.1 s timed batch and a 0.05 s sampling batch
     * each; about 55 s for the suite with the JVMs' starts. The sampling batches are half as long as the timed
     * ones to keep the suite near its minute; the harness lengthens them for ops of several ms (RMI's bursts).
     */
    private static final Settings QUICK_LOCAL = new Settings(1_000_000_000L, 100_000_000L, 50_000_000L, 7);

    private static final Settings QUICK_REMOTE = new Settings(4_000_000_000L, 100_000_000L, 50_000_000L, 7);
    private static final Settings FULL = new Settings(10_000_000_000L, 200_000_000L, 100_000_000L, 25);

    /** One implementation of a case: a timed op, how many calls it makes, and the payload bytes it carries. */
    private record Timed(String impl, QuickHarness.Op op, int callsPerOp, long bytesPerOp) {
        Timed(final String impl, final QuickHarness.Op op, final int callsPerOp) {
            this(impl, op, callsPerOp, 0);
        }
    }

    @Override
    public String name() {
        return "core";
    }

    @Override
    public String summary() {
        return "active-object calls, local and remote: troupe vs executor, volatile spin, RMI and socket spin";
    }

    @Override
    public List<String> cases() {
        return List.of(
                LOCAL,
                REMOTE,
                LOCAL_LOADED,
                REMOTE_LOADED,
                BORDER,
                ONEWAY,
                HOPS,
                ENDPOINT_LOCAL,
                ENDPOINT_REMOTE,
                ENDPOINT_BW,
                FRAME_RTT,
                FRAME_BW);
    }

    @Override
    public void run(final boolean quick, final List<String> cases, final ResultSink sink) throws BenchFailure {
        try (Fixture fixture = new Fixture()) {
            for (final String caseName : cases) {
                if (caseName.equals(HOPS)) {
                    fixture.hops(quick ? QUICK_REMOTE.warmupNanos() : FULL.warmupNanos(), sink);
                    continue;
                }
                final List<Timed> impls = switch (caseName) {
                    case LOCAL -> fixture.local();
                    case REMOTE -> fixture.remote();
                    case LOCAL_LOADED -> only(fixture.local(), "troupe", "executor");
                    case REMOTE_LOADED -> only(fixture.remote(), "troupe", "rmi");
                    case BORDER -> fixture.border();
                    case ONEWAY -> fixture.oneway();
                    case ENDPOINT_LOCAL -> fixture.endpointLocal();
                    case ENDPOINT_REMOTE -> fixture.endpointRemote();
                    case ENDPOINT_BW -> fixture.endpointBandwidth();
                    case FRAME_RTT -> fixture.frames(1);
                    case FRAME_BW -> fixture.frames(BW_FRAME_BYTES);
                    default -> throw new BenchFailure("no case " + caseName);
                };
                final Settings settings = quick
                        ? (caseName.contains("-local") || caseName.startsWith("frame-") ? QUICK_LOCAL : QUICK_REMOTE)
                        : FULL;
                if (caseName.endsWith("-loaded")) {
                    try (BusyLoad load = BusyLoad.start(quick ? LOAD_MAX_SECONDS_QUICK : LOAD_MAX_SECONDS_FULL)) {
                        measure(caseName, impls, settings, sink);
                    }
                } else {
                    measure(caseName, impls, settings, sink);
                }
            }
        } catch (BenchFailure e) {
            throw e;
        } catch (Exception e) {
            throw new BenchFailure("could not set up: " + e, e);
        }
    }

    /** The implementations of {@code impls} called {@code names}, in that order. */
    private static List<Timed> only(final List<Timed> impls, final String... names) {
        final List<Timed> kept = new ArrayList<>();
        for (final String name : names) {
            impls.stream().filter(t -> t.impl().equals(name)).forEach(kept::add);
        }
        return kept;
    }

    private static void measure(
            final String caseName, final List<Timed> impls, final Settings settings, final ResultSink sink)
            throws BenchFailure {
        final List<QuickHarness.Task> tasks = new ArrayList<>();
        for (final Timed t : impls) {
            tasks.add(new QuickHarness.Task(caseName + "/" + t.impl(), t.op()));
        }
        System.err.println("core: " + caseName + ": measuring "
                + impls.stream().map(Timed::impl).toList());
        System.gc();
        final QuickHarness.Timing[] timings;
        try {
            timings = new QuickHarness(settings.warmupNanos(), settings.batchNanos(), settings.batches())
                    .measure(tasks, settings.sampleBatchNanos());
        } catch (Exception e) {
            throw new BenchFailure(caseName + ": failed while measuring: " + e, e);
        }
        for (int i = 0; i < impls.size(); i++) {
            final Timed t = impls.get(i);
            sink.accept(new CoreFigure(
                    caseName,
                    t.impl(),
                    timings[i].perCall(t.callsPerOp()),
                    t.bytesPerOp() == 0 ? 0 : t.bytesPerOp() * 1e3 / timings[i].nsPerOp()));
        }
    }

    /** What the cases call, made when first needed and stopped at the end: runtime, node JVM, baselines. */
    private static final class Fixture implements AutoCloseable {
        private final String secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        private final TroupeRuntime runtime = startRuntime(secret);
        private final Box box = new Box(41);
        private RemoteNode node;
        private Pinger remotePinger;
        private RmiPinger rmi;
        private SpinEcho echo;
        private BenchHost host;
        private ExecutorService executor;
        private VolatileSpin spin;
        private LinkPair tagged;
        private LinkPair bare;

        /**
         * This JVM's runtime from the Troupe settings, as an application's, so that {@code troupe.core.*} keys
         * (environment or -D) tune a run; the secret and the allowed package are the benchmark's own.
         */
        private static TroupeRuntime startRuntime(final String secret) {
            System.setProperty(CoreConfig.SECRET_PROP_NAME, secret);
            System.setProperty(SerializationConfig.ALLOWED_PACKAGES_PROP_NAME, PACKAGE);
            return TroupeRuntime.start(CoreConfig.fromSettings());
        }

        List<Timed> local() throws Exception {
            final Pinger active = ActiveObjects.newActive(Pinger.class, null, runtime.defaultNode());
            final Pinger plain = new Pinger();
            executor = Executors.newSingleThreadExecutor();
            spin = new VolatileSpin();
            check(active.ping(box).value() == 42, "troupe");
            check(executor.submit(() -> plain.ping(box)).get().value() == 42, "executor");
            final long s = spin.roundTrip();
            check(spin.roundTrip() == s + 1, "spin");
            return List.of(
                    new Timed("troupe", bh -> bh.consume(active.ping(box).value()), 1),
                    new Timed(
                            "executor",
                            bh -> bh.consume(
                                    executor.submit(() -> plain.ping(box)).get().value()),
                            1),
                    new Timed("spin", bh -> bh.consume(spin.roundTrip()), 1));
        }

        List<Timed> remote() throws Exception {
            startNode();
            check(remotePinger.ping(box).value() == 42, "troupe");
            check(rmi.ping(box).value() == 42, "rmi");
            check(echo.roundTrip((byte) 7) == 7, "socket-spin");
            return List.of(
                    new Timed("troupe", bh -> bh.consume(remotePinger.ping(box).value()), 1),
                    new Timed("rmi", bh -> bh.consume(rmi.ping(box).value()), 1),
                    new Timed("socket-spin", bh -> bh.consume(echo.roundTrip((byte) 1)), 1));
        }

        List<Timed> border() throws Exception {
            startNode();
            final Border list = Border.list(BORDER_LENGTH);
            check(remotePinger.border(list).value() == BORDER_LENGTH, "troupe");
            check(rmi.border(list).value() == BORDER_LENGTH, "rmi");
            return List.of(
                    new Timed(
                            "troupe", bh -> bh.consume(remotePinger.border(list).value()), 1),
                    new Timed("rmi", bh -> bh.consume(rmi.border(list).value()), 1));
        }

        List<Timed> oneway() throws Exception {
            startNode();
            final long before = remotePinger.ticks().value();
            for (int i = 0; i < BURST; i++) {
                remotePinger.tick(1);
            }
            check(remotePinger.ticks().value() == before + BURST, "troupe");
            final long rmiBefore = rmi.ticks().value();
            rmi.tick(1);
            check(rmi.ticks().value() == rmiBefore + 1, "rmi");
            return List.of(
                    new Timed(
                            "troupe",
                            bh -> {
                                for (int i = 0; i < BURST; i++) {
                                    remotePinger.tick(1);
                                }
                                bh.consume(remotePinger.ticks().value());
                            },
                            BURST),
                    new Timed(
                            "rmi",
                            bh -> {
                                for (int i = 0; i < BURST; i++) {
                                    rmi.tick(1);
                                }
                                bh.consume(rmi.ticks().value());
                            },
                            BURST));
        }

        /**
         * Times each hop of remote calls (see {@link HopTrace}): warms the call up as {@value #REMOTE} does, then
         * traces {@value #TRACED_CALLS} calls in both JVMs and prints one row per hop and one for the whole.
         */
        void hops(final long warmupNanos, final ResultSink sink) throws Exception {
            startNode();
            final long end = System.nanoTime() + warmupNanos;
            while (System.nanoTime() < end) {
                check(remotePinger.ping(box).value() == 42, "troupe");
            }
            System.err.println("core: " + HOPS + ": tracing " + TRACED_CALLS + " calls");
            HopTrace.start();
            host.startHopTrace();
            final long[] ids = new long[TRACED_CALLS];
            for (int i = 0; i < TRACED_CALLS; i++) {
                remotePinger.ping(box).value();
                HopTrace.resumed();
                ids[i] = HopTrace.lastCall();
            }
            HopTrace.stop();
            final long[][] served = host.hopStamps(ids);
            final int hops = HOP_NAMES.length;
            final long[][] durations = new long[hops + 1][TRACED_CALLS];
            int n = 0;
            for (int i = 0; i < TRACED_CALLS; i++) {
                final long[] here = HopTrace.stamps(ids[i]);
                if (here == null || served[i] == null) {
                    continue;
                }
                final long[] all = new long[hops + 1];
                for (int h = 0; h <= hops; h++) { // the serving JVM stamped hops 2 to 6, this one the others
                    all[h] = h >= 2 && h <= 6 ? served[i][h] : here[h];
                }
                for (int h = 0; h < hops; h++) {
                    // A peer may read a frame before the write call that sent it returns: that hop counts as 0.
                    durations[h][n] = Math.max(0, all[h + 1] - all[h]);
                }
                durations[hops][n++] = all[hops] - all[0];
            }
            check(n > TRACED_CALLS / 2, "hop stamps of " + n + " calls only");
            for (int h = 0; h <= hops; h++) {
                final long[] d = Arrays.copyOf(durations[h], n);
                Arrays.sort(d);
                sink.accept(new HopFigure(
                        h == hops ? "round trip" : HOP_NAMES[h],
                        Arrays.stream(d).average().orElseThrow(),
                        d[n / 2],
                        d[(int) Math.ceil(n * 0.99) - 1],
                        n));
            }
        }

        List<Timed> endpointLocal() throws Exception {
            final EndpointAddress echo = EndpointEcho.open("bench-echo", 1, 0);
            final EndpointPing ping = new EndpointPing("bench-ping");
            final ByteBuffer one = ByteBuffer.allocate(1);
            spin = new VolatileSpin();
            check(ping.roundTrip(echo, one) == 1, "troupe");
            final long s = spin.roundTrip();
            check(spin.roundTrip() == s + 1, "spin");
            return List.of(
                    new Timed("troupe", bh -> bh.consume(ping.roundTrip(echo, one)), 1),
                    new Timed("spin", bh -> bh.consume(spin.roundTrip()), 1));
        }

        List<Timed> endpointRemote() throws Exception {
            startNode();
            // Parks after 1 ms without a frame, as the socket baseline's echo does: neither spins while the other
            // is measured.
            final EndpointAddress echo = host.startEndpointEcho("bench-echo", 1, 1);
            final EndpointPing ping = new EndpointPing("bench-ping");
            final ByteBuffer one = ByteBuffer.allocate(1);
            check(ping.roundTrip(echo, one) == 1, "troupe");
            check(this.echo.roundTrip((byte) 7) == 7, "socket-spin");
            return List.of(
                    new Timed("troupe", bh -> bh.consume(ping.roundTrip(echo, one)), 1),
                    new Timed("socket-spin", bh -> bh.consume(this.echo.roundTrip((byte) 1)), 1));
        }

        List<Timed> endpointBandwidth() throws Exception {
            startNode();
            // Nothing else is measured meanwhile: it spins as a rank blocked in a receive does, however long a
            // frame takes to arrive.
            final EndpointAddress sink = host.startEndpointEcho("bench-sink", BW_FRAME_BYTES, 60_000);
            final EndpointPing ping = new EndpointPing("bench-source");
            final ByteBuffer frame = ByteBuffer.allocate(BW_FRAME_BYTES);
            check(ping.roundTrip(sink, frame) == 1, "troupe");
            return List.of(new Timed("troupe", bh -> bh.consume(ping.roundTrip(sink, frame)), 1, BW_FRAME_BYTES));
        }

        /** A frame of {@code bytes} answered by one byte, over a link with tags and over one without. */
        List<Timed> frames(final int bytes) throws Exception {
            closeLinkPairs();
            tagged = new LinkPair(true);
            bare = new LinkPair(false);
            final ByteBuffer frame = ByteBuffer.allocate(bytes);
            check(tagged.roundTrip(frame) == 1, "tagged");
            check(bare.roundTrip(frame) == 1, "bare");
            final long payload = bytes > 1 ? bytes : 0;
            return List.of(
                    new Timed("tagged", bh -> bh.consume(tagged.roundTrip(frame)), 1, payload),
                    new Timed("bare", bh -> bh.consume(bare.roundTrip(frame)), 1, payload));
        }

        private void closeLinkPairs() {
            if (tagged != null) {
                tagged.close();
                bare.close();
            }
        }

        private void startNode() throws Exception {
            if (node != null) {
                return;
            }
            node = RemoteNode.start(runtime, secret, "bench", PACKAGE);
            remotePinger = ActiveObjects.newActive(Pinger.class, null, node.node());
            host = ActiveObjects.newActive(BenchHost.class, null, node.node());
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(host.exportRmi()))) {
                rmi = (RmiPinger) in.readObject();
            }
            echo = SpinEcho.connect("127.0.0.1", host.startSpinEcho());
        }

        @Override
        public void close() throws IOException {
            if (spin != null) {
                spin.close();
            }
            if (executor != null) {
                executor.shutdownNow();
            }
            if (echo != null) {
                echo.close();
            }
            closeLinkPairs();
            runtime.shutdown();
            if (node != null) {
                node.close();
            }
        }
    }
}
