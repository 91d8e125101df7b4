package org.troupe.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another JVM that keeps two busy threads per core spinning, so that a case measures waits on an oversubscribed
 * host: started for the case and killed after it ({@link #close()}, also when the case fails). It ends by itself
 * after the time it is given, and when this JVM's end closes its standard input, so that no load outlives a
 * benchmark that was killed.
 */
public final class BusyLoad implements AutoCloseable {
    /** Busy threads per core of the host. */
    public static final int THREADS_PER_CORE = 2;

    private final Process process;
    private final Thread reaper;

    private BusyLoad(final Process process, final Thread reaper) {
        this.process = process;
        this.reaper = reaper;
    }

    /** Starts the load, which ends by itself after {@code maxSeconds} at most. */
    public static BusyLoad start(final long maxSeconds) throws BenchFailure {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.inherited());
        command.addAll(List.of(
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                BusyLoad.class.getName(),
                Long.toString(maxSeconds)));
        final Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            throw new BenchFailure("cannot start the busy-load JVM: " + e.getMessage(), e);
        }
        final Thread reaper = new Thread(process::destroyForcibly);
        Runtime.getRuntime().addShutdownHook(reaper);
        final BusyLoad load = new BusyLoad(process, reaper);
        try {
            // Its threads are spinning once it says so: a case then starts under the whole load.
            if (process.getInputStream().read() < 0) {
                throw new BenchFailure("the busy-load JVM ended before it started its threads");
            }
        } catch (IOException e) {
            load.close();
            throw new BenchFailure("the busy-load JVM did not start: " + e.getMessage(), e);
        } catch (BenchFailure e) {
            load.close();
            throw e;
        }
        return load;
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException shuttingDown) {
            // The hook runs anyway.
        }
    }

    /** The load itself: {@code BusyLoad MAX_SECONDS}. */
    public static void main(final String[] args) throws IOException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[0]));
        final int threads = THREADS_PER_CORE * Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < threads; i++) {
            final Thread t = new Thread(() -> {
                long x = 0;
                while (System.nanoTime() < end) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                if (x == 42) {
                    System.err.print(""); // keeps the loop from being dropped
                }
                System.exit(0);
            });
            t.setDaemon(true);
            t.start();
        }
        System.out.write('r');
        System.out.flush();
        // Ends when the parent does (its end closes this stream), or when the time is up.
        while (System.in.read() >= 0) {
            // nothing is sent
        }
        System.exit(0);
    }
}
