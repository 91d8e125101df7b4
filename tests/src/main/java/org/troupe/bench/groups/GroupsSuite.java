package org.troupe.bench.groups;

import static org.troupe.bench.BenchFailure.check;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.openjdk.jmh.infra.Blackhole;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.QuickHarness;
import org.troupe.bench.RemoteNode;
import org.troupe.bench.ResultSink;
import org.troupe.bench.Suite;
import org.troupe.core.CoreConfig;
import org.troupe.core.Futures;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.groups.Group;
import org.troupe.groups.Groups;
import org.troupe.serialization.SerializationConfig;

/**
 * Group calls against loops of single calls on the same members, side by side in one run (see
 * {@link QuickHarness}):
 * <ul>
 *   <li>{@code broadcast-1mb-16}: a one-way call with a 1 MiB {@code double[]} on 16 members living in one node
 *       JVM; {@code group} is one call on the group, {@code loop} 16 calls. An op is {@value #BURST} such
 *       broadcasts closed by one gather that waits until every member has served them; the time is per broadcast.
 *   </li>
 *   <li>{@code gather-16}: a call returning a small object on 16 members spread over two node JVMs, then waiting
 *       for all 16 results; {@code group} waits on the result group, {@code loop} on the 16 futures.</li>
 * </ul>
 * {@code bytes_serialized} is what this JVM sent to others per op (frames, headers included), counted over a
 * few untimed ops. Every implementation is checked to give the right answer before it is timed.
 */
public final class GroupsSuite implements Suite {
    static final String BROADCAST = "broadcast-1mb-16";
    static final String GATHER = "gather-16";
    private static final int MEMBERS = 16;
    private static final int DOUBLES = 128 * 1024;
    private static final int BURST = 4;
    private static final int COUNTED_OPS = 5;
    private static final String PACKAGE = GroupsSuite.class.getPackageName();

    /** For the untimed ops that count bytes. */
    private static final Blackhole UNTIMED = new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

    private record Settings(long warmupNanos, long batchNanos, int batches) {}

    /** Quick: 3 s of warm-up per implementation (both JVMs compile the path), 7 batches of 0.2 s. */
    private static final Settings QUICK = new Settings(3_000_000_000L, 200_000_000L, 7);

    private static final Settings FULL = new Settings(10_000_000_000L, 400_000_000L, 25);

    private record Timed(String impl, QuickHarness.Op op, int opsPerRun) {}

    @Override
    public String name() {
        return "groups";
    }

    @Override
    public String summary() {
        return "group calls on 16 members in other JVMs: broadcast and gather, group vs a loop of calls";
    }

    @Override
    public List<String> cases() {
        return List.of(BROADCAST, GATHER);
    }

    @Override
    public void run(final boolean quick, final List<String> cases, final ResultSink sink) throws BenchFailure {
        final String secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        System.setProperty(CoreConfig.SECRET_PROP_NAME, secret);
        System.setProperty(SerializationConfig.ALLOWED_PACKAGES_PROP_NAME, PACKAGE);
        final TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.fromSettings());
        try (RemoteNode a = RemoteNode.start(runtime, secret, "groups-a", PACKAGE);
                RemoteNode b = RemoteNode.start(runtime, secret, "groups-b", PACKAGE)) {
            for (final String caseName : cases) {
                final List<Timed> impls = switch (caseName) {
                    case BROADCAST -> broadcast(a.node());
                    case GATHER -> gather(a.node(), b.node());
                    default -> throw new BenchFailure("no case " + caseName);
                };
                measure(caseName, impls, quick ? QUICK : FULL, sink);
            }
        } catch (BenchFailure e) {
            throw e;
        } catch (Exception e) {
            throw new BenchFailure("could not set up: " + e, e);
        } finally {
            runtime.shutdown();
        }
    }

    private static Receiver members(final Node... nodes) {
        final Object[][] params = new Object[MEMBERS][];
        for (int i = 0; i < MEMBERS; i++) {
            params[i] = new Object[] {i};
        }
        return Groups.newGroup(Receiver.class, params, nodes);
    }

    private static List<Timed> broadcast(final Node node) throws BenchFailure {
        final Receiver group = members(node);
        final List<Receiver> each = Groups.view(group).members();
        final double[] data = new double[DOUBLES];
        group.receive(data);
        final long after = Groups.view(group.read()).waitTheNth(MEMBERS - 1).received();
        check(after == DOUBLES, "group");
        for (final Receiver r : each) {
            r.receive(data);
        }
        check(Groups.view(group.read()).waitTheNth(3).received() == 2L * DOUBLES, "loop");
        return List.of(
                new Timed(
                        "group",
                        bh -> {
                            for (int k = 0; k < BURST; k++) {
                                group.receive(data);
                            }
                            final Group<Reading> readings = Groups.view(group.read());
                            readings.waitAll();
                            bh.consume(readings.size());
                        },
                        BURST),
                new Timed(
                        "loop",
                        bh -> {
                            for (int k = 0; k < BURST; k++) {
                                for (final Receiver r : each) {
                                    r.receive(data);
                                }
                            }
                            final Group<Reading> readings = Groups.view(group.read());
                            readings.waitAll();
                            bh.consume(readings.size());
                        },
                        BURST));
    }

    private static List<Timed> gather(final Node a, final Node b) throws BenchFailure {
        final Receiver group = members(a, b);
        final List<Receiver> each = Groups.view(group).members();
        check(Groups.view(group.read()).waitTheNth(MEMBERS - 1).id() == MEMBERS - 1, "group");
        check(each.get(5).read().id() == 5, "loop");
        return List.of(
                new Timed(
                        "group",
                        bh -> {
                            final Group<Reading> readings = Groups.view(group.read());
                            readings.waitAll();
                            bh.consume(readings.size());
                        },
                        1),
                new Timed(
                        "loop",
                        bh -> {
                            final List<Reading> readings = new ArrayList<>(MEMBERS);
                            for (final Receiver r : each) {
                                readings.add(r.read());
                            }
                            Futures.waitForAll(readings);
                            bh.consume(readings.size());
                        },
                        1));
    }

    private static void measure(
            final String caseName, final List<Timed> impls, final Settings settings, final ResultSink sink)
            throws BenchFailure {
        final List<QuickHarness.Task> tasks = new ArrayList<>();
        final long[] bytes = new long[impls.size()];
        try {
            for (int i = 0; i < impls.size(); i++) {
                final Timed t = impls.get(i);
                tasks.add(new QuickHarness.Task(caseName + "/" + t.impl(), t.op()));
                final long before = TroupeRuntime.get().bytesSent();
                for (int k = 0; k < COUNTED_OPS; k++) {
                    t.op().run(UNTIMED);
                }
                bytes[i] = (TroupeRuntime.get().bytesSent() - before) / ((long) COUNTED_OPS * t.opsPerRun());
            }
            System.err.println("groups: " + caseName + ": measuring "
                    + impls.stream().map(Timed::impl).toList());
            System.gc();
            final double[] nsPerOp = new QuickHarness(settings.warmupNanos(), settings.batchNanos(), settings.batches())
                    .medianNsPerOp(tasks);
            for (int i = 0; i < impls.size(); i++) {
                sink.accept(new GroupFigure(
                        caseName, impls.get(i).impl(), nsPerOp[i] / impls.get(i).opsPerRun(), bytes[i]));
            }
        } catch (BenchFailure e) {
            throw e;
        } catch (Exception e) {
            throw new BenchFailure(caseName + ": failed while measuring: " + e, e);
        }
    }
}
