package org.troupe.core.remote;

import java.lang.reflect.Constructor;
import org.troupe.core.exceptions.CallFailedException;
import org.troupe.core.spi.Outcome;
import org.troupe.serialization.SerializationConfig;

/**
 * An exception as it crosses the wire: its class name, message, stack trace and cause, as plain data. The receiver
 * rebuilds the exception itself when its class is a JDK one or is allowed, and not an {@link Error}; otherwise a
 * {@link CallFailedException} naming it; either way with the callee's stack trace.
 */
public record RemoteFailure(String className, String message, String[] trace, RemoteFailure cause) {
    private static final int MAX_CAUSES = 8;
    /** Frames kept of a trace, both ways: the top of a deep recursion says enough, and a peer may send any count. */
    static final int MAX_FRAMES = 1024;

    /**
     * Stands, as a class name, for "the method returned, but its result could not be encoded": the failure is then
     * the cause, so that the caller blames the result, not the method.
     */
    private static final String RESULT_NOT_SENT = "troupe:result-not-sent";

    public static RemoteFailure of(final Throwable t) {
        return of(t, 0);
    }

    /** The failure to encode {@code t}, a method's result, as the caller should see it. */
    static RemoteFailure resultNotSent(final Throwable t) {
        return new RemoteFailure(RESULT_NOT_SENT, null, new String[0], of(t));
    }

    private static RemoteFailure of(final Throwable t, final int depth) {
        final StackTraceElement[] frames = t.getStackTrace();
        final String[] trace = new String[Math.min(frames.length, MAX_FRAMES)];
        for (int i = 0; i < trace.length; i++) {
            final StackTraceElement f = frames[i];
            trace[i] = f.getClassName() + "|" + f.getMethodName() + "|" + f.getFileName() + "|" + f.getLineNumber();
        }
        final Throwable cause = t.getCause();
        return new RemoteFailure(
                t.getClass().getName(),
                Outcome.message(t),
                trace,
                cause == null || cause == t || depth >= MAX_CAUSES ? null : of(cause, depth + 1));
    }

    /** The exception to throw where the future is touched. */
    public Throwable toThrowable(final SerializationConfig config, final String where) {
        if (RESULT_NOT_SENT.equals(className) && cause != null) {
            return new CallFailedException(
                    "the result of " + where + " could not be sent back: " + cause.className
                            + (cause.message == null ? "" : ": " + cause.message),
                    cause.className,
                    cause.toThrowable(config, "the encoding of the result of " + where));
        }
        Throwable rebuilt = rebuild(config);
        if (rebuilt == null) {
            rebuilt = new CallFailedException(
                    where + " threw " + className + (message == null ? "" : ": " + message), className, null);
        }
        rebuilt.setStackTrace(frames());
        if (cause != null && rebuilt.getCause() == null) {
            try {
                rebuilt.initCause(cause.toThrowable(config, where));
            } catch (IllegalStateException e) {
                // the constructor fixed the cause already
            }
        }
        return rebuilt;
    }

    private Throwable rebuild(final SerializationConfig config) {
        if (!className.startsWith("java.") && !config.allowsClassName(className)) {
            return null;
        }
        try {
            final Class<?> c = Class.forName(className, false, RemoteFailure.class.getClassLoader());
            if (!Throwable.class.isAssignableFrom(c) || Error.class.isAssignableFrom(c)) {
                return null; // an Error is the callee's JVM's trouble: thrown here, it would pass for this JVM's own
            }
            try {
                final Constructor<?> withMessage = c.getConstructor(String.class);
                return (Throwable) withMessage.newInstance(message);
            } catch (NoSuchMethodException e) {
                return message == null ? (Throwable) c.getConstructor().newInstance() : null;
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    private StackTraceElement[] frames() {
        final StackTraceElement[] frames =
                new StackTraceElement[trace == null ? 0 : Math.min(trace.length, MAX_FRAMES)];
        for (int i = 0; i < frames.length; i++) {
            final String[] p = trace[i].split("\\|", 4);
            int line = -1;
            try {
                line = p.length > 3 ? Integer.parseInt(p[3]) : -1;
            } catch (NumberFormatException e) {
                // keep -1
            }
            frames[i] = new StackTraceElement(
                    p[0], p.length > 1 ? p[1] : "?", p.length > 2 && !"null".equals(p[2]) ? p[2] : null, line);
        }
        return frames;
    }
}
