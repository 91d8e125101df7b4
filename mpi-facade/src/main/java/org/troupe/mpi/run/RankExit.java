package org.troupe.mpi.run;

import java.util.Objects;

/**
 * A rank's {@code System.exit}, {@code Runtime.exit} or {@code Runtime.halt} in a job of threads: the rank class
 * loader rewrites those calls of the program into these methods, so that the call ends the rank, not the JVM and
 * every other rank with it. An {@code Error}, so that the program's own {@code catch (Exception e)} lets it pass.
 */
public final class RankExit extends Error {
    private final int status;

    private RankExit(final String call, final int status) {
        super(call + "(" + status + ")");
        this.status = status;
    }

    /** Instead of {@code System.exit(status)}. */
    public static void exit(final int status) {
        throw new RankExit("System.exit", status);
    }

    /** Instead of {@code runtime.exit(status)}. */
    public static void exit(final Runtime runtime, final int status) {
        Objects.requireNonNull(runtime);
        throw new RankExit("Runtime.exit", status);
    }

    /** Instead of {@code runtime.halt(status)}. */
    public static void halt(final Runtime runtime, final int status) {
        Objects.requireNonNull(runtime);
        throw new RankExit("Runtime.halt", status);
    }

    public int status() {
        return status;
    }

    /** Where the program made the call, as {@code Class.method(File.java:12)}; "?" if it is not known. */
    String where() {
        for (final StackTraceElement e : getStackTrace()) {
            if (!e.getClassName().equals(RankExit.class.getName())) { // without the rank's class loader's name
                return new StackTraceElement(e.getClassName(), e.getMethodName(), e.getFileName(), e.getLineNumber())
                        .toString();
            }
        }
        return "?";
    }
}
