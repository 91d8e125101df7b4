package org.troupe.bench.core;

import java.io.Serializable;

/** A small result: proxiable (a non-final class), so a call returning it returns a future at once. */
public class Box implements Serializable {
    private long value;

    public Box() {}

    public Box(final long value) {
        this.value = value;
    }

    public long value() {
        return value;
    }
}
