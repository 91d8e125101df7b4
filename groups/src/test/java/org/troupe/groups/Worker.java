package org.troupe.groups;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A group member for the tests. */
public class Worker {
    /** Holds {@link #gated} calls until a test opens it. */
    public static volatile CountDownLatch gate = new CountDownLatch(0);

    private int id;
    private final List<Object> received = new ArrayList<>();

    public Worker() {}

    public Worker(final Integer id) {
        this.id = id;
    }

    public Value value(final int n) {
        return new Value(id * 100 + n, "w" + id);
    }

    /** Waits for the gate when {@code wait} is true. */
    public Value gated(final boolean wait) throws InterruptedException {
        if (wait && !gate.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never opened the gate");
        }
        return new Value(id, "gated" + id);
    }

    public void take(final Object part) {
        received.add(part);
    }

    /** Keeps a reference to the array it got, so a test can see whether members share it. */
    public void fill(final double[] data, final double v) {
        data[0] = v;
        received.add(data);
    }

    public Value received() {
        final StringBuilder b = new StringBuilder();
        for (final Object o : received) {
            b.append(b.isEmpty() ? "" : ",").append(o instanceof double[] d ? "d" + d[0] : String.valueOf(o));
        }
        return new Value(received.size(), b.toString());
    }

    public int load() {
        return id;
    }

    public Value keep(final Object anything) {
        received.add(anything);
        return new Value(id, "kept" + id);
    }

    public Value withValue(final Value v) {
        return new Value(v.number() + id, "with" + id);
    }

    public Value fail(final int who) {
        if (who == id) {
            throw new IllegalStateException("member " + id + " fails on purpose");
        }
        return new Value(id, "ok");
    }

    /** A one-way method that waits for the gate, then throws on member {@code who}. */
    public void failAfterGate(final int who) throws InterruptedException {
        if (!gate.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never opened the gate");
        }
        if (who == id) {
            throw new IllegalStateException("member " + id + " fails on purpose, one way");
        }
    }

    /** Fails alike on every member, as a refusal by configuration would. */
    public int refuse() {
        throw new IllegalStateException("A peer asked to create a org.acme.pi.Worker, which is not allowed here;"
                + " allow it with troupe.serialization.allowedPackages");
    }

    /** Members 1 and 3 fail alike, member 2 otherwise, member 0 not. */
    public int refuseSome() {
        return switch (id) {
            case 1, 3 -> throw new IllegalStateException("odd members refuse");
            case 2 -> throw new IllegalArgumentException("member 2 refuses its own way");
            default -> id;
        };
    }

    public int id() {
        return id;
    }
}
