package org.troupe.mpi.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.troupe.mpi.fabric.RankBinding;

/**
 * {@code System.out} or {@code System.err} shared by the ranks of a job run as threads: each thread's output is
 * buffered until its line ends, so that lines of different ranks never mix, and may be prefixed with the rank.
 */
final class RankOutput extends OutputStream {
    private final PrintStream target;
    private final boolean tag;
    /** Each thread's unfinished line; a map, not a thread-local, so that what is left can be written at the end. */
    private final Map<Thread, Line> lines = new ConcurrentHashMap<>();

    /** A thread's unfinished line, and its prefix, taken from the thread's rank when it first writes. */
    private static final class Line extends ByteArrayOutputStream {
        final String prefix;

        Line() {
            final RankBinding b = RankBinding.current();
            prefix = b == null ? "[mpjrun] " : "[" + b.rank() + "] ";
        }
    }

    private RankOutput(final PrintStream target, final boolean tag) {
        this.target = target;
        this.tag = tag;
    }

    /** A print stream over {@code target} that writes whole lines, prefixed {@code [rank] } if {@code tag}. */
    static RankOutput over(final PrintStream target, final boolean tag) {
        return new RankOutput(target, tag);
    }

    PrintStream printStream() {
        return new PrintStream(this, true, Charset.defaultCharset());
    }

    /** Writes what threads left without a final newline, each as a line: at the end of the job. */
    void flushLeftovers() {
        for (final Line line : lines.values()) {
            if (line.size() > 0) {
                line.write('\n');
                emit(line);
            }
        }
        lines.clear();
    }

    private Line line() {
        return lines.computeIfAbsent(Thread.currentThread(), t -> new Line());
    }

    @Override
    public void write(final int b) {
        final Line line = line();
        line.write(b);
        if (b == '\n') {
            emit(line);
        }
    }

    @Override
    public void write(final byte[] b, final int off, final int len) {
        final Line line = line();
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                line.write(b, start, i + 1 - start);
                emit(line);
                start = i + 1;
            }
        }
        line.write(b, start, off + len - start);
    }

    /**
     * A thread's unfinished line stays buffered until its newline, so that lines of ranks never mix; what is left
     * without one is written when the job ends.
     */
    @Override
    public void flush() {}

    private void emit(final Line line) {
        synchronized (target) {
            if (tag) {
                target.print(line.prefix);
            }
            try {
                line.writeTo(target);
            } catch (IOException e) {
                throw new IllegalStateException(e); // a PrintStream does not throw it
            }
            target.flush();
        }
        line.reset();
    }
}
