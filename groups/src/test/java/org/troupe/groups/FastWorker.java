package org.troupe.groups;

/** A subclass member (polymorphic groups): one more method, so its method numbering differs from Worker's. */
public class FastWorker extends Worker {
    public FastWorker() {}

    public FastWorker(final Integer id) {
        super(id);
    }

    public int aaaFirstInTheTable() {
        return 0;
    }

    @Override
    public Value value(final int n) {
        return new Value(-n, "fast");
    }
}
