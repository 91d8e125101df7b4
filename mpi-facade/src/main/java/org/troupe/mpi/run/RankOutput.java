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
    private final ThreadLocal<ByteArrayOutputStream> lines = ThreadLocal.withInitial(ByteArrayOutputStream::new);

    private RankOutput(final PrintStream target, final boolean tag) {
        this.target = target;
        this.tag = tag;
    }

    /** A print stream over {@code target} that writes whole lines, prefixed {@code [rank] } if {@code tag}. */
    static PrintStream over(final PrintStream target, final boolean tag) {
        return new PrintStream(new RankOutput(target, tag), true, Charset.defaultCharset());
    }

    @Override
    public void write(final int b) {
        final ByteArrayOutputStream line = lines.get();
        line.write(b);
        if (b == '\n') {
            emit(line);
        }
    }

    @Override
    public void write(final byte[] b, final int off, final int len) {
        final ByteArrayOutputStream line = lines.get();
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

    /** A thread's unfinished line stays buffered until its newline: flushing alone does not cut a line in two. */
    @Override
    public void flush() {
    }

    private void emit(final ByteArrayOutputStream line) {
        synchronized (target) {
            if (tag) {
                final RankBinding b = RankBinding.current();
                target.print(b == null ? "[mpjrun] " : "[" + b.rank() + "] ");
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
