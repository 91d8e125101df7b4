package org.troupe.serialization;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.StringWriter;
import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.InaccessibleObjectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.commons.configuration2.MapConfiguration;
import org.junit.jupiter.api.Test;
import org.troupe.serialization.NotSendableException.Reason;

/**
 * What can never cross the wire, whatever is allowed, is refused as such, with the field path that led to it: a
 * lambda or other hidden class, a local resource, a JDK class Troupe cannot rebuild. The refusal never advises to
 * allow a JDK package or a hidden class, never ends in an {@code InaccessibleObjectException}, and leaves the session
 * as if the message had not been tried.
 */
class NotSendableTest {
    record Task(String name, Runnable callback) {}

    record Job(String name, List<Task> tasks, Map<String, Object> byName) {}

    record Holder(Object value) {}

    /** A class of the application that is a resource by its supertype. */
    static final class Worker extends Thread {}

    @Test
    void shouldRefuseALambdaAndNameTheFieldThatHoldsIt() {
        final Wire wire = Wire.permissive();
        final Runnable callback = () -> {};
        final TroupeOutput out = wire.sender.encoder().newOutput();
        out.writeInt(7);
        final NotSendableException e = assertThrows(
                NotSendableException.class,
                () -> wire.sender.encoder().encode(new Object[] {new Task("t", callback)}, out));
        assertEquals(Reason.LAMBDA, e.reason());
        assertEquals(callback.getClass().getName(), e.className());
        assertEquals("Task.callback", e.path());
        assertEquals(
                "Task.callback is a lambda (" + callback.getClass().getName() + "): lambdas cannot be sent;"
                        + " send an active object, or an object of a named class whose package is allowed (it need not be"
                        + " Serializable)",
                e.getMessage());
        assertEquals(4, out.position(), "nothing of the refused message is left in the output");
        // The class table is as if the message had not been tried: the next one, with the same classes, reads.
        assertEquals(new Task("u", null), wire.roundTrip(new Task("u", null)));
    }

    @Test
    void shouldRefuseALambdaEvenWhenItsClassIsAllowedAndNeverSuggestAllowingIt() {
        final Runnable lambda = () -> {};
        final Wire wire = new Wire(
                SerializationConfig.builder().allowClass(lambda.getClass()).build());
        final NotSendableException e = assertThrows(NotSendableException.class, () -> wire.send(lambda));
        assertEquals(Reason.LAMBDA, e.reason());
        assertNull(e.path(), "the lambda is the message itself");
        assertEquals(
                lambda.getClass().getName()
                        + " is a lambda: lambdas cannot be sent; send an active object, or an object"
                        + " of a named class whose package is allowed (it need not be Serializable)",
                e.getMessage());
        final NotSendableException method = assertThrows(
                NotSendableException.class, () -> Wire.permissive().send(new Holder((Runnable) Thread::yield)));
        assertEquals(Reason.LAMBDA, method.reason(), "a method reference is a lambda too");
        assertNoAdviceToAllow(e);
        assertNoAdviceToAllow(method);
    }

    @Test
    void shouldFindTheFieldPathThroughListsArraysAndMaps() {
        final Wire wire = Wire.permissive();
        final Runnable callback = () -> {};
        final Job inList = new Job("j", List.of(new Task("a", null), new Task("b", callback)), Map.of());
        assertEquals(
                "Job.tasks[1].callback",
                assertThrows(NotSendableException.class, () -> wire.send(new Object[] {inList}))
                        .path());
        final Map<String, Object> byName = new LinkedHashMap<>();
        byName.put("a", new Task("a", null));
        byName.put("b", new Object[] {new Task("b", callback)});
        final Job inMap = new Job("j", List.of(), byName);
        assertEquals(
                "Job.byName[\"b\"][0].callback",
                assertThrows(NotSendableException.class, () -> wire.send(new ArrayList<>(List.of(inMap))))
                        .path());
        final Thread thread = new Thread(() -> {});
        assertEquals(
                "Holder.value",
                assertThrows(NotSendableException.class, () -> wire.send(new Holder(thread)))
                        .path());
    }

    @Test
    void shouldRefuseAHiddenClassThatIsNotALambda() throws Exception {
        final byte[] bytes = ClassFile.of()
                .build(
                        ClassDesc.of(getClass().getPackageName() + ".Hidden"),
                        c -> c.withFlags(ClassFile.ACC_PUBLIC)
                                .withMethodBody(
                                        INIT_NAME,
                                        MTD_void,
                                        ClassFile.ACC_PUBLIC,
                                        code -> code.aload(0)
                                                .invokespecial(CD_Object, INIT_NAME, MTD_void)
                                                .return_()));
        final Class<?> hidden =
                MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();
        final Object instance = hidden.getConstructor().newInstance();
        final NotSendableException e =
                assertThrows(NotSendableException.class, () -> Wire.permissive().send(new Holder(instance)));
        assertEquals(Reason.HIDDEN_CLASS, e.reason());
        assertEquals(
                "Holder.value (" + hidden.getName() + ") is of a hidden class: hidden classes cannot be sent;"
                        + " send an active object, or an object of a named class whose package is allowed (it need not be"
                        + " Serializable)",
                e.getMessage());
        assertNoAdviceToAllow(e);
    }

    /** Every kind of resource, refused by its supertype even when its class is allowed one by one. */
    @Test
    void shouldRefuseLocalResourcesWhateverIsAllowed() throws Exception {
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        final Pipe pipe = Pipe.open();
        try (ServerSocket server = new ServerSocket();
                Socket socket = new Socket()) {
            final Map<Object, String> resources = new LinkedHashMap<>(); // each, and the type that makes it one
            resources.put(new Thread(() -> {}), null);
            resources.put(new Worker(), "a Thread");
            resources.put(Thread.currentThread().getThreadGroup(), null);
            resources.put(server, null);
            resources.put(socket, null);
            resources.put(pipe.source(), "a Channel");
            resources.put(new ByteArrayInputStream(new byte[1]), "an InputStream");
            resources.put(new StringWriter(), "a Writer");
            resources.put(new ReentrantLock(), "a Lock");
            resources.put(new CountDownLatch(1), null);
            resources.put(executor, "an Executor");
            resources.put(new CompletableFuture<>(), "a Future");
            resources.put(getClass().getClassLoader(), "a ClassLoader");
            for (final Map.Entry<Object, String> r : resources.entrySet()) {
                final Class<?> type = r.getKey().getClass();
                for (final SerializationConfig config : List.of(
                        Wire.TEST_CONFIG,
                        Wire.TEST_CONFIG.toBuilder().allowClass(type).build())) {
                    final NotSendableException e = assertThrows(
                            NotSendableException.class,
                            () -> new Wire(config).send(new Holder(r.getKey())),
                            type.getName());
                    assertEquals(Reason.LOCAL_RESOURCE, e.reason(), e.getMessage());
                    final String kind = r.getValue() == null ? "" : ", " + r.getValue();
                    assertEquals(
                            "Holder.value (" + type.getName() + kind + ") is a local resource and cannot be sent:"
                                    + " create it where it is used, or send an active object that holds it",
                            e.getMessage());
                    assertNoAdviceToAllow(e);
                }
            }
        } finally {
            executor.shutdownNow();
            pipe.source().close();
            pipe.sink().close();
        }
    }

    /**
     * A JDK class that Kryo would have to read field by field reflects on a package the JDK does not open: allowing
     * it used to end in an InaccessibleObjectException on the sender. It is refused as such, allowed or not.
     */
    @Test
    void shouldRefuseAJdkClassItCannotRebuildEvenWhenAllowedWithoutReflectingOnIt() {
        for (final Object jdk : List.of(new AtomicInteger(1), new File("x"))) {
            for (final SerializationConfig config : List.of(
                    SerializationConfig.defaults(),
                    SerializationConfig.builder().allowClass(jdk.getClass()).build())) {
                final NotSendableException e = assertThrows(
                        NotSendableException.class,
                        () -> new Wire(config).send(jdk),
                        jdk.getClass().getName());
                assertEquals(Reason.UNSUPPORTED_JDK_CLASS, e.reason());
                assertTrue(
                        e.getMessage()
                                .startsWith(jdk.getClass().getName() + " is a JDK class that cannot be sent,"
                                        + " whatever is allowed"),
                        e.getMessage());
                assertTrue(e.getMessage().contains(SerializationConfig.JDK_CLASSES_SENT), e.getMessage());
                assertNoAdviceToAllow(e);
                for (Throwable t = e; t != null; t = t.getCause()) {
                    assertFalse(t instanceof InaccessibleObjectException, "no reflection was tried");
                }
            }
        }
        // A view or wrapper would be written, then fail to be rebuilt on the other side: refused when written.
        final List<Integer> view = Collections.unmodifiableList(new ArrayList<>(List.of(1)));
        final NotSendableException e = assertThrows(
                NotSendableException.class,
                () -> new Wire(SerializationConfig.builder()
                                .allowClass(view.getClass())
                                .build())
                        .send(view));
        assertEquals(Reason.UNSUPPORTED_JDK_CLASS, e.reason());
    }

    /** A JDK class that can be sent once allowed gets the advice that works, never the package's. */
    @Test
    void shouldAdviseAllowingAJdkClassThatCanBeSentOneByOne() {
        final ClassNotAllowedException e = assertThrows(
                ClassNotAllowedException.class, () -> new Wire(SerializationConfig.defaults()).send(Optional.of(1)));
        assertEquals(
                "Class java.util.Optional is not allowed to cross the wire; a JDK package cannot be allowed"
                        + " whole: allow the class alone, in every JVM's configuration, with"
                        + " -Dtroupe.serialization.allowedClasses=java.util.Optional (or in code"
                        + " SerializationConfig.Builder.allowClass(Optional.class))",
                e.getMessage());
        assertEquals(
                Optional.of(1),
                new Wire(SerializationConfig.builder()
                                .allowClass(Optional.class)
                                .build())
                        .roundTrip(Optional.of(1)),
                "the advice works");
    }

    /** Allowing java.lang whole is refused at once, with the JDK classes that do cross. */
    @Test
    void shouldRefuseToAllowJavaLangAndSayWhichJdkClassesCross() {
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> SerializationConfig.fromSettings(new MapConfiguration(
                        Map.of(SerializationConfig.ALLOWED_PACKAGES_PROP_NAME, "org.acme,java.lang"))));
        assertEquals(
                "'java.lang' holds JDK classes and cannot be allowed whole: a peer could instantiate any of" + " them. "
                        + SerializationConfig.JDK_CLASSES_SENT,
                e.getMessage());
    }

    private static void assertNoAdviceToAllow(final SerializationException e) {
        assertFalse(
                e.getMessage().contains("allowClass(") || e.getMessage().contains("allowedPackages="),
                "no advice to allow what can never be sent: " + e.getMessage());
        assertInstanceOf(NotSendableException.class, e);
    }
}
