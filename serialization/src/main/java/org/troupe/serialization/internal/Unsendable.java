package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.Reader;
import java.io.Writer;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.Channel;
import java.nio.channels.Selector;
import java.util.List;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Exchanger;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import org.troupe.serialization.NotSendableException;
import org.troupe.serialization.NotSendableException.Reason;

/**
 * What can never cross the wire, whatever the allow-list says, so that the refusal says why instead of advising to
 * allow it (or failing deep in Kryo with an {@code InaccessibleObjectException}):
 * <ul>
 *   <li>hidden classes, lambdas among them: no other JVM can name them;</li>
 *   <li>local resources, judged by supertype: a copy of a thread, socket, stream, lock, executor or future would be
 *       a dead object, not the resource. Any class that is or extends one of {@link #RESOURCES}, and any JDK class
 *       that is {@link AutoCloseable} (files, channels, scanners, streams of elements, clients...);</li>
 *   <li>other JDK classes whose serializer would have to reflect on the private fields of a package the JDK does not
 *       open (a {@code UUID}, a {@code File}), and JDK collections that Kryo's generic serializer could write but not
 *       rebuild (views and wrappers such as {@code Collections.unmodifiableList}, {@code map.keySet()}).</li>
 * </ul>
 */
final class Unsendable {
    /** Types whose instances only mean something in the JVM that made them. */
    private static final List<Class<?>> RESOURCES = List.of(
            Thread.class,
            ThreadGroup.class,
            ClassLoader.class,
            Process.class,
            ProcessHandle.class,
            Runtime.class,
            Executor.class,
            Future.class,
            Lock.class,
            ReadWriteLock.class,
            Condition.class,
            Semaphore.class,
            CountDownLatch.class,
            CyclicBarrier.class,
            Phaser.class,
            Exchanger.class,
            Timer.class,
            TimerTask.class,
            Socket.class,
            ServerSocket.class,
            DatagramSocket.class,
            Channel.class,
            Selector.class,
            InputStream.class,
            OutputStream.class,
            Reader.class,
            Writer.class,
            RandomAccessFile.class);

    private Unsendable() {}

    /** Why objects of {@code type} (or arrays of them) can never be sent, or null if they might be. */
    static NotSendableException refusal(final Class<?> type, final AllowList allowList) {
        final Class<?> c = element(type);
        if (c.isPrimitive() || allowList.replaces(c)) {
            return null;
        }
        if (c.isHidden()) {
            return new NotSendableException(
                    c.getName().contains("$$Lambda") ? Reason.LAMBDA : Reason.HIDDEN_CLASS, c.getName(), null, null);
        }
        for (final Class<?> r : RESOURCES) {
            if (r.isAssignableFrom(c)) {
                return resource(c, r);
            }
        }
        return isJdk(c) && AutoCloseable.class.isAssignableFrom(c) ? resource(c, AutoCloseable.class) : null;
    }

    private static NotSendableException resource(final Class<?> c, final Class<?> kind) {
        return new NotSendableException(
                Reason.LOCAL_RESOURCE, c.getName(), c == kind ? null : kind.getSimpleName(), null);
    }

    /**
     * Refuses a JDK class whose serializer could write it but not rebuild it: Kryo's generic collection and map
     * serializers make the collection with its no-argument constructor, which views and wrappers lack (they would be
     * read as broken instances that throw on first use).
     */
    static void checkSerializer(final Class<?> type, final Serializer<?> serializer) {
        final Class<?> s = serializer.getClass();
        if ((s == CollectionSerializer.class || s == MapSerializer.class) && isJdk(type) && !publicNoArg(type)) {
            throw unsupportedJdk(type);
        }
    }

    /**
     * Whether Kryo's reflective serializer would fail on {@code type}, a class of the JDK: it has fields to read in
     * a package the JDK does not open to Kryo (it would end in an {@code InaccessibleObjectException}).
     */
    static boolean closedJdkClass(final Class<?> type) {
        if (!isJdk(type)) {
            return false;
        }
        final Module kryo = Serializer.class.getModule();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (!c.getModule().isOpen(c.getPackageName(), kryo) && hasInstanceFields(c)) {
                return true;
            }
        }
        return false;
    }

    static NotSendableException unsupportedJdk(final Class<?> type) {
        return new NotSendableException(Reason.UNSUPPORTED_JDK_CLASS, type.getName(), null, null);
    }

    /** Whether {@code c} is a class of the JDK's own modules. */
    static boolean isJdk(final Class<?> c) {
        final ClassLoader loader = c.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    static Class<?> element(final Class<?> type) {
        Class<?> c = type;
        while (c.isArray()) {
            c = c.getComponentType();
        }
        return c;
    }

    private static boolean hasInstanceFields(final Class<?> c) {
        for (final Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                return true;
            }
        }
        return false;
    }

    private static boolean publicNoArg(final Class<?> c) {
        if (!Modifier.isPublic(c.getModifiers())) {
            return false;
        }
        try {
            return Modifier.isPublic(c.getConstructor().getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
