package org.troupe.bench.core;

import java.util.function.BooleanSupplier;
import org.troupe.core.spi.Progress;

/** How the benchmark's senders wait for an answer: spinning and driving the transports' progress themselves. */
final class Spinning {
    private Spinning() {}

    /** Returns once {@code done} says so, reading what the transports receive meanwhile. */
    static void until(final BooleanSupplier done) {
        if (done.getAsBoolean()) {
            return;
        }
        final int spinning = Progress.startSpinning();
        try {
            while (!done.getAsBoolean()) {
                Progress.poll();
                Thread.onSpinWait();
            }
        } finally {
            Progress.stopSpinning(spinning);
        }
    }
}
