package org.troupe.deploy.launch;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * A machine a deployment works on: this one, or one reached over SSH. Everything a launch step does there goes
 * through it: private files in the deployment's own directory, short commands, and long-running scripts.
 */
interface Host {
    /** For messages: "this host", "ssh user@host:port". */
    String describe();

    /** The absolute path, on that host, of this deployment's private directory (mode 700), with a logs/ in it. */
    String workDir();

    /** Writes {@code content} to {@code path} with the POSIX {@code mode} (e.g. 0600). */
    void write(String path, byte[] content, int mode);

    /** Runs {@code script} with {@code sh}, waiting at most {@code timeout} for it to end. */
    Result run(String script, Duration timeout);

    /**
     * Starts {@code script} with {@code sh} in the background; it runs until it ends or is stopped. Each line it
     * prints goes to {@code lines}, on a thread of the host's.
     */
    Background start(String script, Consumer<String> lines);

    /**
     * Deletes the secret, and the rest of the deployment's directory unless {@code keepLogs} (something failed and
     * its logs explain why), then lets go of the host.
     */
    void release(boolean keepLogs);

    /** How a short command ended. */
    record Result(int exitCode, String out, String err) {
        boolean ok() {
            return exitCode == 0;
        }

        /** The exit code and the last lines of the command's error output, for an error message. */
        String explain() {
            final String text = (err.isBlank() ? out : err).strip();
            return "exit code " + exitCode + (text.isEmpty() ? "" : ": " + Scripts.lastLines(text, 6));
        }
    }

    /** A script running in the background: what its host says of its end, and how the host stops it. */
    final class Background {
        private final CompletableFuture<Integer> exited;
        private final Runnable stopper;

        /**
         * @param exited completed with the exit code once the script ends (by itself or stopped), after its last
         *     line; -1 when the host was lost and the script's fate is unknown
         * @param stopper stops the script and everything it started, and returns once they have ended
         */
        Background(final CompletableFuture<Integer> exited, final Runnable stopper) {
            this.exited = exited;
            this.stopper = stopper;
        }

        /** Calls {@code listener} with the exit code once the script ends. */
        void onExit(final IntConsumer listener) {
            exited.thenAccept(listener::accept);
        }

        void stop() {
            stopper.run();
        }

        /**
         * Waits, a bounded time, until {@code exited} completes, which it does after the script's last line was
         * handled: a stopper calls it once the script has ended, so that what its JVMs printed last is not lost.
         */
        static void awaitLastLines(final CompletableFuture<Integer> exited) {
            try {
                exited.get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // a line handler that hangs, or a host that does not say: the stop goes on
            }
        }
    }
}
