package org.troupe.mpi.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import org.troupe.mpi.fabric.RankBinding;

/**
 * {@code System.out} or {@code System.err} shared by the ranks of a job run as threads: each thread's output is
 * buffered until its line ends, so that lines of different ranks never mix, and may be prefixed with the rank.
 */
final class RankOutput extends OutputStream {
    private final PrintStream target;
    private final boolean tag;
    /** Each thread's unfinished line; a map, not a thread-local, so that what is left can be written at the end. */
    private final java.util.Map<Thread, ByteArrayOutputStream> lines = new java.util.concurrent.ConcurrentHashMap<>();
    /** The prefix of each thread's lines, taken from its rank when it first writes. */
    private final java.util.Map<Thread, String> prefixes = new java.util.concurrent.ConcurrentHashMap<>();

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
        for (final java.util.Map.Entry<Thread, ByteArrayOutputStream> e : lines.entrySet()) {
            if (e.getValue().size() > 0) {
                e.getValue().write('\n');
                emit(e.getKey(), e.getValue());
            }
        }
        lines.clear();
        prefixes.clear();
    }

    private ByteArrayOutputStream line() {
        prefixes.computeIfAbsent(Thread.currentThread(), t -> {
            final RankBinding b = RankBinding.current();
            return b == null ? "[mpjrun] " : "[" + b.rank() + "] ";
        });
        return lines.computeIfAbsent(Thread.currentThread(), t -> new ByteArrayOutputStream());
    }

    @Override
    public void write(final int b) {
        final ByteArrayOutputStream line = line();
        line.write(b);
        if (b == '\n') {
            emit(Thread.currentThread(), line);
        }
    }

    @Override
    public void write(final byte[] b, final int off, final int len) {
        final ByteArrayOutputStream line = line();
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                line.write(b, start, i + 1 - start);
                emit(Thread.currentThread(), line);
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
    public void flush() {
    }

    private void emit(final Thread writer, final ByteArrayOutputStream line) {
        synchronized (target) {
            if (tag) {
                target.print(prefixes.getOrDefault(writer, "[mpjrun] "));
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
