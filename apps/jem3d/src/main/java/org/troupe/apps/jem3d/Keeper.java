package org.troupe.apps.jem3d;

import java.util.HashMap;
import java.util.Map;

/**
 * The checkpoint copies one node holds for the subdomains of its buddy node, as an active object on it: each
 * subdomain keeps its own copy, so that losing one node never loses both copies of a block. A copy is the block's E
 * and H after a step; copies of a run's earlier epochs (before a restart re-divided the mesh) and of steps older than
 * the latest complete checkpoint are dropped.
 */
public class Keeper {
    /** Copies by (epoch, block, step). */
    private final Map<Key, double[][]> copies = new HashMap<>();

    private record Key(int epoch, int block, int step) {}

    public Keeper() {}

    /** Keeps block {@code block}'s fields after {@code step} of {@code epoch}, and tells {@code collector}. */
    public void keep(
            final int epoch,
            final int block,
            final int step,
            final double[] e,
            final double[] h,
            final Collector collector) {
        copies.put(new Key(epoch, block, step), new double[][] {e, h});
        collector.kept(epoch, block, step);
    }

    /** Block {@code block}'s copy after {@code step} of {@code epoch}, or null if this node holds none. */
    public double[][] copy(final int epoch, final int block, final int step) {
        return copies.get(new Key(epoch, block, step));
    }

    /** The checkpoint at {@code step} of {@code epoch} is complete: every older copy goes. */
    public void complete(final int epoch, final int step) {
        copies.keySet().removeIf(k -> k.epoch() < epoch || k.epoch() == epoch && k.step() < step);
    }
}
