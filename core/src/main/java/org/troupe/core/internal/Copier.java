package org.troupe.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.troupe.core.proxy.Proxied;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.TroupeOutput;
import org.troupe.serialization.WireForm;

/**
 * Deep copies of call arguments and results between active objects of one JVM, so that a call has the same meaning
 * as it would across JVMs: the callee cannot see the caller's later changes, nor the caller the callee's. Immutable
 * values, proxies of active objects and futures are passed as they are. Copies go through the serialization layer,
 * so the same classes are allowed locally and remotely.
 */
public final class Copier {
    private final SerializationConfig config;
    /** Sessions are single-threaded and costly; a pool serves any number of (virtual) threads. */
    private final ConcurrentLinkedQueue<Session> pool = new ConcurrentLinkedQueue<>();

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
        Session s = pool.poll();
        if (s == null) {
            s = new Session(config);
        }
        try {
            return s.copy(value);
        } finally {
            pool.offer(s);
        }
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
                codec.encoder().encode(value, out, true);
                return codec.decoder().decode(new org.troupe.serialization.TroupeInput(out.getBuffer(), 0,
                    out.position()));
            } finally {
                passThrough.objects.clear();
            }
        }
    }

    /** The slot of an object passed by identity during one copy. */
    public record Slot(int index) {
    }

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
