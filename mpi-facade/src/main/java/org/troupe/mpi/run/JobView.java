package org.troupe.mpi.run;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.metrics.MetricsReport;
import org.troupe.monitor.Entity;
import org.troupe.monitor.Monitor;
import org.troupe.monitor.Panel;

/**
 * An MPI job as mpjrun's console shows it ({@code --monitor}): a table of the ranks (state, JVM, messages and bytes
 * sent and received, unexpected messages, time waiting in MPI) and the matrix of bytes sent between ranks, made at
 * each update from the ranks' {@code troupe.mpi.*} meters (this JVM's for threads, the rank JVMs' reports else).
 */
final class JobView implements AutoCloseable {
    /** No console: nothing is counted or shown. */
    static final JobView NONE = new JobView(null, null, 0);

    private final TroupeRuntime runtime;
    private final Panel panel;
    private final int np;
    private final ScheduledExecutorService timer;
    private volatile IntFunction<String> states = r -> "running";
    /** The JVM of each rank, as its meters last said; null before. */
    private volatile String[] jvms;
    /** The ranks whose JVM reported once: one that no longer does is lost. */
    private final boolean[] seen;

    private JobView(final TroupeRuntime runtime, final Monitor monitor, final int np) {
        this.runtime = runtime;
        this.np = np;
        this.seen = new boolean[np];
        this.panel = monitor == null ? null : monitor.panel("MPI job");
        if (monitor == null) {
            this.timer = null;
            return;
        }
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "mpjrun-console");
            t.setDaemon(true);
            return t;
        });
    }

    /** Shows the job of {@code np} ranks in {@code monitor}, every {@code periodMillis}. */
    static JobView start(final TroupeRuntime runtime, final Monitor monitor, final int np, final long periodMillis) {
        final JobView v = new JobView(runtime, monitor, np);
        monitor.tree(v::tree);
        v.timer.scheduleWithFixedDelay(v::update, 0, periodMillis, TimeUnit.MILLISECONDS);
        return v;
    }

    /** Where this JVM's ranks count their traffic, or null when nothing is shown. */
    MeterRegistry registry() {
        return panel == null ? null : runtime.metrics().registry();
    }

    /** The ranks' states from now on: {@code starting}, {@code running}, {@code finalized}, {@code failed}, ... */
    void follow(final IntFunction<String> rankStates) {
        this.states = rankStates;
    }

    /** Reads the ranks' meters and fills the panel. */
    void update() {
        if (panel == null) {
            return;
        }
        final List<MetricsReport> reports = new ArrayList<>(runtime.metrics().reports());
        reports.add(runtime.metrics().snapshot());
        final double[][] bytes = new double[np][np];
        final double[][] rows = new double[np][5]; // messages sent, bytes sent, bytes received, unexpected, wait
        final String[] jvm = new String[np];
        for (final MetricsReport r : reports) {
            double waited = 0;
            final List<Integer> ranksHere = new ArrayList<>();
            for (final MetricsReport.Sample s : r.samples()) {
                final int rank = rankOf(s.tags(), "rank");
                if (s.name().equals("troupe.mpi.wait")) {
                    waited = s.value(Statistic.TOTAL_TIME);
                }
                if (rank < 0) {
                    continue;
                }
                if (!ranksHere.contains(rank)) {
                    ranksHere.add(rank);
                }
                final int peer = rankOf(s.tags(), "peer");
                final double v = s.value(s.name().equals("troupe.mpi.unexpected") ? Statistic.VALUE : Statistic.COUNT);
                switch (s.name()) {
                    case "troupe.mpi.messages.sent" -> rows[rank][0] += v;
                    case "troupe.mpi.bytes.sent" -> {
                        rows[rank][1] += v;
                        if (peer >= 0) {
                            bytes[rank][peer] += v;
                        }
                    }
                    case "troupe.mpi.bytes.received" -> rows[rank][2] += v;
                    case "troupe.mpi.unexpected" -> rows[rank][3] = v;
                    default -> {}
                }
            }
            for (final int rank : ranksHere) {
                rows[rank][4] = waited / ranksHere.size();
                jvm[rank] = r.runtimeId().equals(runtime.id()) ? "launcher" : r.runtimeId();
            }
        }
        final List<String> labels = new ArrayList<>();
        final IntFunction<String> state = rankState(jvm);
        for (int rank = 0; rank < np; rank++) {
            labels.add(String.valueOf(rank));
            panel.row(
                    "ranks",
                    List.of(
                            "rank",
                            "state",
                            "JVM",
                            "messages sent",
                            "bytes sent",
                            "bytes received",
                            "unexpected",
                            "waiting in MPI (s)"),
                    String.valueOf(rank),
                    List.of(
                            state.apply(rank),
                            jvm[rank] == null ? "" : jvm[rank],
                            (long) rows[rank][0],
                            (long) rows[rank][1],
                            (long) rows[rank][2],
                            (long) rows[rank][3],
                            String.format("%.3f", rows[rank][4])));
        }
        panel.matrix("bytes sent", labels, bytes, "bytes");
        jvms = jvm;
        lostStates = state;
    }

    /** The ranks' states: the launcher's word, or lost for a rank whose JVM reported and no longer does. */
    private IntFunction<String> rankState(final String[] jvm) {
        final boolean[] lost = new boolean[np];
        for (int rank = 0; rank < np; rank++) {
            lost[rank] = seen[rank] && jvm[rank] == null;
            seen[rank] |= jvm[rank] != null;
        }
        final IntFunction<String> said = states;
        return r -> lost[r] ? "lost" : said.apply(r);
    }

    /** The states as the last update made them. */
    private volatile IntFunction<String> lostStates = r -> "starting";

    /**
     * The job as the console's tree: its JVMs (as their meters place the ranks), each named by its ranks
     * ({@code ranks-2}, {@code ranks-2-3}), which the Prometheus jvm label and the rows of the console carry too.
     */
    private List<Entity> tree() {
        final String[] where = jvms;
        final IntFunction<String> state = lostStates;
        final Map<String, List<Integer>> byJvm = new LinkedHashMap<>();
        for (int rank = 0; rank < np; rank++) {
            byJvm.computeIfAbsent(where == null || where[rank] == null ? "" : where[rank], k -> new ArrayList<>())
                    .add(rank);
        }
        final List<Entity> children = new ArrayList<>();
        byJvm.forEach((jvm, ranks) -> {
            final List<Entity> shown = ranks.stream()
                    .map(r -> Entity.of("rank", String.valueOf(r), state.apply(r), ""))
                    .toList();
            final String name = ranks.size() == 1
                    ? "ranks-" + ranks.get(0)
                    : "ranks-" + ranks.get(0) + "-" + ranks.get(ranks.size() - 1);
            children.add(
                    jvm.isEmpty()
                            ? new Entity("jvm", "(not reporting yet)", "starting", "", "", shown)
                            : jvm.equals("launcher")
                                    ? new Entity("jvm", "launcher", "running", "ranks as threads", "", shown)
                                    : new Entity("jvm", name, "registered", jvm, jvm, shown));
        });
        return List.of(new Entity("job", np + " ranks", "running", "", "", children));
    }

    private int rankOf(final Map<String, String> tags, final String key) {
        final String v = tags.get(key);
        if (v == null || !v.matches("[0-9]{1,9}")) {
            return -1;
        }
        final int r = Integer.parseInt(v);
        return r < np ? r : -1;
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
            update(); // the job's last figures stay on the page while the console runs
        }
    }
}
