package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.serialization.NotSendableException;
import org.troupe.serialization.NotSendableException.Reason;
import org.troupe.serialization.SerializationConfig;

/**
 * An argument of a call or of a constructor that can never cross the wire (a lambda, a thread, a JDK class Troupe
 * cannot rebuild) is refused on the caller's thread, with a message that says so, before the call is queued: the
 * callee never runs, no object is made. Same JVM, where arguments are deep-copied, as across JVMs.
 */
class NotSendableArgumentsTest {
    public record Task(String name, Runnable callback) {}

    public static class Taker {
        static final AtomicInteger CONSTRUCTED = new AtomicInteger();
        private int served;

        public Taker() {
            CONSTRUCTED.incrementAndGet();
        }

        public Taker(final Task task) {
            CONSTRUCTED.incrementAndGet();
        }

        public int take(final Task task) {
            return ++served;
        }

        public void post(final Object anything) {
            served++;
        }

        public int served() {
            return served;
        }
    }

    @RegisterExtension
    final LocalRuntime local = LocalRuntime.of(() -> CoreConfig.builder()
            .serialization(SerializationConfig.builder()
                    .allowPackage("org.troupe.core")
                    .allowClass(Thread.class, AtomicInteger.class)
                    .build())
            .build());

    @Test
    void shouldRefuseALambdaArgumentOnTheCallersThreadAndNeverRunTheCallee(final TestInfo test) {
        final Taker taker = ActiveObjects.newActive(Taker.class, null, local.node());
        final Runnable callback = () -> {};
        final NotSendableException e =
                assertThrows(NotSendableException.class, () -> taker.take(new Task("t", callback)));
        assertEquals(
                "Task.callback in argument 1 of Taker.take is a lambda ("
                        + callback.getClass().getName()
                        + "): lambdas cannot be sent;"
                        + " send an active object, or an object of a named class whose package is allowed (it need not be"
                        + " Serializable)",
                e.getMessage());
        assertThrownHere(e, test);
        assertEquals(0, taker.served(), "the callee never ran");
        assertEquals(1, taker.take(new Task("u", null)), "and serves the next call");
    }

    /** A thread stays a local resource even with java.lang.Thread allowed (it used to fail deep in Kryo). */
    @Test
    void shouldRefuseAOneWayCallCarryingAThreadOnTheCallersThread(final TestInfo test) {
        final Taker taker = ActiveObjects.newActive(Taker.class, null, local.node());
        final NotSendableException e = assertThrows(NotSendableException.class, () -> taker.post(new Thread(() -> {})));
        assertEquals(Reason.LOCAL_RESOURCE, e.reason());
        assertEquals(
                "argument 1 of Taker.post (java.lang.Thread) is a local resource and cannot be sent: create it"
                        + " where it is used, or send"
                        + " an active object that holds it",
                e.getMessage());
        assertThrownHere(e, test);
        final NotSendableException closed =
                assertThrows(NotSendableException.class, () -> taker.post(new AtomicInteger(1)));
        assertEquals(Reason.UNSUPPORTED_JDK_CLASS, closed.reason(), closed.getMessage());
        assertFalse(closed.getMessage().contains("InaccessibleObjectException"), closed.getMessage());
        assertEquals(0, taker.served(), "the one-way calls were never queued");
    }

    @Test
    void shouldRefuseAConstructorArgumentBeforeTheObjectIsMade(final TestInfo test) {
        final int constructed = Taker.CONSTRUCTED.get();
        final int objects = local.runtime().activeObjectCount();
        final Runnable callback = () -> {};
        final NotSendableException e = assertThrows(
                NotSendableException.class,
                () -> ActiveObjects.newActive(Taker.class, new Object[] {new Task("t", callback)}, local.node()));
        assertEquals(Reason.LAMBDA, e.reason());
        assertEquals("Task.callback", e.path());
        assertThrownHere(e, test);
        assertEquals(constructed, Taker.CONSTRUCTED.get(), "no constructor ran");
        assertEquals(objects, local.runtime().activeObjectCount(), "no active object was made");
    }

    /** The refusal a peer's request to create an object meets, with the exact value to set and the form to use. */
    @Test
    void shouldSayHowToAllowTheClassOfAnObjectAPeerAskedFor() {
        final int objects = local.runtime().activeObjectCount();
        final TroupeException e = assertThrows(
                TroupeException.class,
                () -> local.runtime()
                        .core()
                        .newActive("org.acme.pi.Worker", new Object[0], TroupeRuntime.DEFAULT_NODE));
        assertEquals(
                "A peer asked to create a org.acme.pi.Worker, which is not allowed here; allow its package:"
                        + " -Dtroupe.serialization.allowedPackages=org.troupe.core,org.acme.pi (with bin/deploy:"
                        + " JAVA_OPTS=-Dtroupe.serialization.allowedPackages=org.troupe.core,org.acme.pi bin/deploy ...), or in"
                        + " code SerializationConfig.Builder.allowPackage(\"org.acme.pi\")",
                e.getMessage());
        assertEquals(objects, local.runtime().activeObjectCount());
    }

    /** Thrown by the caller's own thread, from the test method, not rethrown from another thread's work. */
    private static void assertThrownHere(final Throwable e, final TestInfo test) {
        final String method = test.getTestMethod().orElseThrow().getName();
        assertTrue(
                Arrays.stream(e.getStackTrace()).anyMatch(f -> f.getMethodName().startsWith("lambda$" + method)),
                "thrown in the caller's frame of " + method);
    }
}
