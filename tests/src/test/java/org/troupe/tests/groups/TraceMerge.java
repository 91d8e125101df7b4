package org.troupe.tests.groups;

import java.util.ArrayList;
import java.util.List;
import org.troupe.groups.Combiner;

/** Adds two traces and notes the process that did it. */
public class TraceMerge implements Combiner<Trace> {
    @Override
    public Trace combine(final Trace first, final Trace second) {
        final List<Long> where = new ArrayList<>(first.foldedIn());
        where.addAll(second.foldedIn());
        where.add(ProcessHandle.current().pid());
        return new Trace(first.sum() + second.sum(), where);
    }
}
