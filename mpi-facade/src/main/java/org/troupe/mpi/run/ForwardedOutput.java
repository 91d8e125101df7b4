package org.troupe.mpi.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The output of a JVM job's ranks, copied to one of mpjrun's streams: byte for byte; or, tagged, line by line, each
 * line prefixed with its rank (a rank's partial line waits for the rest of it). A deployed rank's output comes as
 * frames ({@link #accept}, on the launcher's endpoint thread); a forked rank's is its JVM's, read by a thread of its
 * own ({@link #pump}). Lines of different ranks never mix: each is written whole, holding the stream's lock.
 */
final class ForwardedOutput {
    private final PrintStream to;
    private final ByteArrayOutputStream[] partial;

    /** Output of {@code np} deployed ranks to {@code to}, tagged if {@code tagged}. */
    ForwardedOutput(final PrintStream to, final int np, final boolean tagged) {
        this.to = to;
        this.partial = tagged ? new ByteArrayOutputStream[np] : null;
    }

    /** Bytes rank {@code rank} wrote. */
    synchronized void accept(final int rank, final byte[] bytes) {
        if (partial == null) {
            synchronized (to) {
                to.write(bytes, 0, bytes.length);
                to.flush();
            }
            return;
        }
        if (partial[rank] == null) {
            partial[rank] = new ByteArrayOutputStream();
        }
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                partial[rank].write(bytes, start, i + 1 - start);
                emit(to, ("[" + rank + "] ").getBytes(StandardCharsets.UTF_8), partial[rank]);
                start = i + 1;
            }
        }
        partial[rank].write(bytes, start, bytes.length - start);
    }

    /** The job is over: partial lines are written as lines. */
    synchronized void finish() {
        for (int r = 0; partial != null && r < partial.length; r++) {
            if (partial[r] != null && partial[r].size() > 0) {
                partial[r].write('\n');
                emit(to, ("[" + r + "] ").getBytes(StandardCharsets.UTF_8), partial[r]);
            }
        }
    }

    /**
     * Starts a thread that copies a forked rank's output to {@code to} until it ends: byte for byte; with a prefix,
     * line by line, each line prefixed.
     */
    static Thread pump(final InputStream from, final PrintStream to, final String prefix) {
        return pump(from, to, prefix, false);
    }

    /**
     * As {@link #pump(InputStream, PrintStream, String)}, line by line also without a prefix if {@code wholeLines}:
     * for a JVM of several ranks, whose lines must not mix with another JVM's (it holds a partial line back itself).
     */
    static Thread pump(final InputStream from, final PrintStream to, final String prefix, final boolean wholeLines) {
        final byte[] tag = prefix.getBytes(StandardCharsets.UTF_8);
        return Thread.ofPlatform().daemon(true).name("mpjrun-output").start(() -> {
            final ByteArrayOutputStream line = new ByteArrayOutputStream();
            final byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = from.read(buf)) > 0) {
                    if (tag.length == 0 && !wholeLines) {
                        synchronized (to) {
                            to.write(buf, 0, n);
                            to.flush();
                        }
                        continue;
                    }
                    int start = 0;
                    for (int i = 0; i < n; i++) {
                        if (buf[i] == '\n') {
                            line.write(buf, start, i + 1 - start);
                            emit(to, tag, line);
                            start = i + 1;
                        }
                    }
                    line.write(buf, start, n - start);
                }
            } catch (IOException e) {
                // the rank's JVM ended: its output ends with it
            }
            if (line.size() > 0) {
                line.write('\n');
                emit(to, tag, line);
            }
        });
    }

    private static void emit(final PrintStream to, final byte[] tag, final ByteArrayOutputStream line) {
        synchronized (to) {
            to.write(tag, 0, tag.length);
            to.write(line.toByteArray(), 0, line.size());
            to.flush();
        }
        line.reset();
    }
}
