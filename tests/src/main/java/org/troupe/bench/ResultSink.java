package org.troupe.bench;

import java.io.PrintStream;

/** Where figures go: one JSON object per line, flushed at once so a consumer can follow a long run. */
public final class ResultSink {
    private final PrintStream out;

    public ResultSink(final PrintStream out) {
        this.out = out;
    }

    public void accept(final Figure m) {
        out.println(m.toJson());
        out.flush();
    }
}
