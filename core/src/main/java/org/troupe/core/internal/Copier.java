package org.troupe.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.troupe.core.spi.Proxied;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;
import org.troupe.serialization.WireForm;

/**
 * Deep copies of call arguments and results between active objects of one JVM, so that a call has the same meaning
 * as it would across JVMs: the callee cannot see the caller's later changes, nor the caller the callee's. Immutable
 * values, proxies of active objects and futures are passed as they are. Copies go through the serialization layer
 * with the settings of remote messages, so the same classes are allowed locally and remotely, and shared or cyclic
 * references are kept exactly when a remote call would keep them ({@code troupe.serialization.references} and
 * the always-tracked classes): a program does not change meaning when its objects are deployed apart. Tracking
 * them in every local copy also cost half of a local call.
 */
public final class Copier {
    private final SerializationConfig config;
    /** Sessions are single-threaded and costly; a pool serves any number of (virtual) threads. */
    private final ConcurrentLinkedQueue<Session> pool = new ConcurrentLinkedQueue<>();

    private final ThreadLocal<Lease> leases = new ThreadLocal<>();

    public Copier(final SerializationConfig config) {
        this.config = config;
    }

    /** The arguments, copied where sharing them would change the call's meaning. */
    public Object[] copyArguments(final Object[] args) {
        boolean shared = true;
        for (final Object a : args) {
            if (!Immutables.isImmutable(a)) {
                shared = false;
                break;
            }
        }
        return shared ? args : (Object[]) copyAny(args);
    }

    /** {@code value}, copied unless it is immutable. */
    public Object copy(final Object value) {
        return Immutables.isImmutable(value) ? value : copyAny(value);
    }

    private Object copyAny(final Object value) {
        Lease lease = leases.get();
        if (lease == null && !Thread.currentThread().isVirtual()) {
            lease = new Lease(); // a platform thread: one of few, and long-lived
            leases.set(lease);
        }
        if (lease != null) {
            if (lease.session == null) {
                lease.session = take();
            }
            return lease.session.copy(value);
        }
        final Session s = take();
        try {
            return s.copy(value);
        } finally {
            pool.offer(s);
        }
    }

    private Session take() {
        final Session s = pool.poll();
        return s != null ? s : new Session(config);
    }

    /**
     * Lets the calling thread (a body's) keep the session it copies with until {@link #idle()}: a session that
     * moves between threads at every call costs more in cache misses than the copy itself.
     */
    public void enterThread() {
        leases.set(new Lease());
    }

    /** Gives the calling thread's session back to the pool: its thread is about to park. */
    public void idle() {
        final Lease lease = leases.get();
        if (lease != null && lease.session != null) {
            pool.offer(lease.session);
            lease.session = null;
        }
    }

    /** Ends {@link #enterThread()}. */
    public void exitThread() {
        idle();
        leases.remove();
    }

    /** The session a thread keeps while it is busy, if any. */
    private static final class Lease {
        Session session;
    }

    /** A codec session whose proxies (active objects, futures) cross by identity. */
    private static final class Session {
        private final PassThrough passThrough = new PassThrough();
        private final CodecSession codec;
        private final TroupeOutput out;

        Session(final SerializationConfig config) {
            this.codec = new CodecSession(config, List.of(passThrough));
            this.out = codec.encoder().newOutput();
        }

        Object copy(final Object value) {
            out.setPosition(0);
            try {
                codec.encoder().encode(value, out); // references as configured, as a remote call's message
                return codec.decoder().decode(new TroupeInput(out.getBuffer(), 0, out.position()));
            } finally {
                passThrough.objects.clear();
            }
        }
    }

    /** The slot of an object passed by identity during one copy. */
    public record Slot(int index) {}

    private static final class PassThrough implements WireForm<Proxied, Slot> {
        final List<Object> objects = new ArrayList<>();

        @Override
        public Class<Proxied> type() {
            return Proxied.class;
        }

        @Override
        public Class<Slot> wireType() {
            return Slot.class;
        }

        @Override
        public Slot replace(final Proxied value) {
            objects.add(value);
            return new Slot(objects.size() - 1);
        }

        @Override
        public Object resolve(final Slot wire) {
            return objects.get(wire.index());
        }
    }
}
