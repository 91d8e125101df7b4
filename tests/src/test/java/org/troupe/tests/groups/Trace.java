package org.troupe.tests.groups;

import java.util.ArrayList;
import java.util.List;

/** A reply to combine: a sum, and the processes where replies were folded into it. */
public class Trace {
    private long sum;
    private List<Long> foldedIn = new ArrayList<>();

    public Trace() {}

    public Trace(final long sum, final List<Long> foldedIn) {
        this.sum = sum;
        this.foldedIn = new ArrayList<>(foldedIn);
    }

    public long sum() {
        return sum;
    }

    public List<Long> foldedIn() {
        return foldedIn;
    }
}
