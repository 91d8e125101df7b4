package org.troupe.core.exceptions;

import java.io.Serial;
import java.util.Arrays;

/**
 * Where, in this JVM, the future of a failed call was touched. The callee's exception is rethrown with its own
 * (remote) stack trace, which does not show the caller's line; a {@code TouchedAt} is added to it as a suppressed
 * exception, so that a stack trace printed at the caller shows both sides. It names the call: the method, the
 * active object and its node, and for a group's result the member.
 */
public final class TouchedAt extends TroupeException {
    @Serial
    private static final long serialVersionUID = 1L;
    /** A future touched in a loop must not grow its failure without bound: the first few places tell the story. */
    private static final int MAX_PER_FAILURE = 4;

    private TouchedAt(final String call) {
        super(call + " failed; its outcome was touched here");
        final StackTraceElement[] frames = getStackTrace();
        int first = 0;
        while (first < frames.length - 1 && isTroupeInternal(frames[first].getClassName())) {
            first++;
        }
        setStackTrace(Arrays.copyOfRange(frames, first, frames.length));
    }

    /**
     * Adds to {@code failure}, about to be rethrown where the outcome of {@code call} is touched, a {@code TouchedAt}
     * with the current thread's frames; once per line of the caller's, at most a few times.
     */
    public static void addTo(final Throwable failure, final String call) {
        final TouchedAt here = new TouchedAt(call);
        synchronized (failure) {
            int count = 0;
            for (final Throwable s : failure.getSuppressed()) {
                if (s instanceof TouchedAt t) {
                    if (sameLine(t, here)) {
                        return;
                    }
                    count++;
                }
            }
            if (count < MAX_PER_FAILURE) {
                failure.addSuppressed(here);
            }
        }
    }

    private static boolean sameLine(final Throwable a, final Throwable b) {
        final StackTraceElement[] x = a.getStackTrace();
        final StackTraceElement[] y = b.getStackTrace();
        return x.length > 0 && y.length > 0 && x[0].equals(y[0]);
    }

    /** Frames of the waiting machinery, above the caller's own line. */
    private static boolean isTroupeInternal(final String className) {
        return className.startsWith("org.troupe.core.internal.")
                || className.startsWith("org.troupe.core.spi.")
                || className.startsWith("org.troupe.core.proxy.")
                || className.startsWith("org.troupe.core.remote.")
                || className.startsWith("org.troupe.groups.internal.")
                || className.equals(TouchedAt.class.getName())
                || className.equals("org.troupe.core.Futures")
                || className.equals("org.troupe.groups.Group")
                || className.contains("$$Troupe");
    }
}
