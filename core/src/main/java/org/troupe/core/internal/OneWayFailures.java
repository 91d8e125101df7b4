package org.troupe.core.internal;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.spi.Outcome;

/**
 * Where the failures of one-way calls made from this JVM end up: the log, and the application's listeners. They are
 * told on a thread of their own, one failure after the other: never on the thread that found the failure (an
 * active object's, or the one reading a link), which a listener that blocks, throws or calls back would stall or
 * kill. Failures that come faster than they are told are counted, not queued without end. A listener is told
 * {@code (call, cause)}; the API makes of them its {@code OneWayFailure}s.
 */
public final class OneWayFailures {
    private static final Logger LOG = LoggerFactory.getLogger(OneWayFailures.class);
    private static final int MAX_WAITING = 1024;
    /** A call's text from another runtime is cut here, and its control characters replaced: it goes to the log. */
    private static final int MAX_CALL_CHARS = 1000;

    private static final CopyOnWriteArrayList<BiConsumer<String, Throwable>> LISTENERS = new CopyOnWriteArrayList<>();
    private static final AtomicLong DROPPED = new AtomicLong();
    private static final ThreadPoolExecutor TELLER = new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(MAX_WAITING),
            Thread.ofVirtual().name("troupe-one-way-failures").factory(),
            (task, executor) -> DROPPED.incrementAndGet());

    private OneWayFailures() {}

    /** Adds {@code listener(call, cause)}; running the returned action removes it. */
    public static Runnable listen(final BiConsumer<String, Throwable> listener) {
        LISTENERS.add(listener);
        return () -> LISTENERS.remove(listener);
    }

    /** Reports, in the caller's JVM, that the one-way call {@code call} threw {@code cause}. */
    public static void report(final String call, final Throwable cause) {
        final String printable = printable(call);
        TELLER.execute(() -> tell(printable, cause));
    }

    private static void tell(final String call, final Throwable cause) {
        final String what = Outcome.describe(cause);
        try {
            LOG.warn("One-way call {} threw {}", call, what, cause);
        } catch (Throwable t) { // printing its stack trace calls its toString, which may throw
            LOG.warn(
                    "One-way call {} threw {} (its stack trace could not be printed: {})",
                    call,
                    what,
                    t.getClass().getName());
        }
        for (final BiConsumer<String, Throwable> l : LISTENERS) {
            try {
                l.accept(call, cause);
            } catch (Throwable t) {
                LOG.warn("A listener of one-way failures threw {}", Outcome.describe(t));
            }
        }
        final long dropped = DROPPED.getAndSet(0);
        if (dropped > 0) {
            LOG.warn("{} more one-way failures came faster than they could be reported, and were dropped", dropped);
        }
    }

    /** {@code call} cut to a log line's length, with its control characters (line breaks among them) replaced. */
    private static String printable(final String call) {
        final String cut = call.length() > MAX_CALL_CHARS ? call.substring(0, MAX_CALL_CHARS) + "..." : call;
        return cut.codePoints()
                .map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
    }
}
