package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One-way failures reported in one JVM whatever the failure and the listeners do: the callee serves on. */
@Timeout(60)
class OneWayFailureRobustnessTest {
    /** An exception whose text cannot be read. */
    public static final class Hostile extends RuntimeException {
        public Hostile() {
            super();
        }

        @Override
        public String getMessage() {
            throw new IllegalStateException("getMessage is hostile");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString is hostile");
        }
    }

    public static class Box {
        public Box() {}

        @Override
        public String toString() {
            throw new IllegalStateException("value toString is hostile");
        }
    }

    public static class Target {
        public Target() {}

        public void hostile() {
            throw new Hostile();
        }

        public void plain(final int i) {
            throw new IllegalArgumentException("plain " + i);
        }

        public void error() {
            throw new AssertionError("an Error from a one-way method");
        }

        public int ping() {
            return 42;
        }

        public Box hostileFuture() {
            throw new Hostile();
        }
    }

    @RegisterExtension
    final LocalRuntime local = LocalRuntime.allowingPackage("org.troupe.core");

    private static boolean alive(final Target t) throws InterruptedException {
        final AtomicInteger r = new AtomicInteger();
        final Thread th = Thread.ofVirtual().start(() -> {
            try {
                r.set(t.ping());
            } catch (RuntimeException e) {
                r.set(-1); // not alive
            }
        });
        return th.join(Duration.ofSeconds(5)) && r.get() == 42;
    }

    /** A one-way method throwing an exception whose toString throws: the active object must live on. */
    @Test
    void aHostileExceptionFromAOneWayCallDoesNotKillTheActiveObject() throws Exception {
        final Target t = ActiveObjects.newActive(Target.class, new Object[0], local.node());
        t.hostile();
        assertTrue(alive(t), "the active object no longer serves after a one-way call threw a hostile exception");
    }

    /** A listener that throws an Error (a failed assertion in a test, say). */
    @Test
    void aListenerThrowingAnErrorDoesNotKillTheActiveObject() throws Exception {
        try (Subscription s = ActiveObjects.onOneWayFailure(f -> {
            throw new AssertionError("listener failed");
        })) {
            final Target t = ActiveObjects.newActive(Target.class, new Object[0], local.node());
            t.plain(1);
            assertTrue(alive(t), "the active object no longer serves after a listener threw an Error");
        }
    }

    /** A listener that blocks: does it hold the callee's active object? */
    @Test
    void aBlockingListenerDoesNotStallTheCallee() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        try (Subscription s = ActiveObjects.onOneWayFailure(f -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })) {
            final Target t = ActiveObjects.newActive(Target.class, new Object[0], local.node());
            t.plain(1);
            final boolean ok = alive(t);
            release.countDown();
            assertTrue(ok, "the callee's active object is stalled by the caller's listener");
        }
    }

    /** A listener that calls back the object whose one-way call failed: natural, and a self-deadlock. */
    @Test
    void aListenerCallingTheFailedObjectDoesNotDeadlock() throws Exception {
        final AtomicInteger got = new AtomicInteger();
        final Target t = ActiveObjects.newActive(Target.class, new Object[0], local.node());
        try (Subscription s = ActiveObjects.onOneWayFailure(f -> got.set(t.ping()))) {
            t.plain(1);
            assertTrue(alive(t), "a listener that asks the failed object for its state deadlocks it");
        }
    }

    /** A failed future whose failure's message cannot be read prints without throwing. */
    @Test
    void aFailedFuturePrintsEvenIfItsFailureCannotBeRead() {
        final Target t = ActiveObjects.newActive(Target.class, new Object[0], local.node());
        final Box b = t.hostileFuture();
        try {
            Futures.waitForAll(List.of(b));
        } catch (RuntimeException ignored) {
            // touched
        }
        String text;
        try {
            text = String.valueOf(b);
        } catch (RuntimeException e) {
            text = "THREW " + e;
        }
        assertTrue(text.startsWith("<failed"), "a future's toString must never rethrow: " + text);
    }

    /** The one-way failure listener sees every report; a cause reported once per failure. */
    @Test
    void errorsFromOneWayMethodsAreReported() throws Exception {
        final LinkedBlockingQueue<OneWayFailure> q = new LinkedBlockingQueue<>();
        try (Subscription s = ActiveObjects.onOneWayFailure(q::add)) {
            final Target t = ActiveObjects.newActive(Target.class, new Object[0], local.node());
            t.error();
            final OneWayFailure f = q.poll(10, TimeUnit.SECONDS);
            assertTrue(f != null && f.cause() instanceof AssertionError, "an Error from a one-way method: " + f);
            assertEquals(42, t.ping());
        }
    }
}
