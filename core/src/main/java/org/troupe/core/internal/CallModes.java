package org.troupe.core.internal;

import java.lang.reflect.Method;
import java.lang.reflect.TypeVariable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import org.troupe.core.CallMode;
import org.troupe.core.Immediate;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.spi.MethodTable;

/** Decides, from its signature alone, how each method of an active class is called. */
public final class CallModes {
    private static final ClassValue<CallMode[]> MODES = new ClassValue<>() {
        @Override
        protected CallMode[] computeValue(final Class<?> type) {
            final MethodTable table = MethodTable.of(type);
            final CallMode[] modes = new CallMode[table.size()];
            for (int i = 0; i < modes.length; i++) {
                modes[i] = of(table.method(i));
            }
            return modes;
        }
    };

    private CallModes() {
    }

    /** The modes of {@code type}'s methods, indexed as its {@link MethodTable}. Do not modify. */
    public static CallMode[] of(final Class<?> type) {
        return MODES.get(type);
    }

    public static CallMode of(final Method m) {
        return m.isAnnotationPresent(Immediate.class) ? CallMode.IMMEDIATE : ofResult(m);
    }

    /** The mode {@code m}'s return type gives, {@code @Immediate} aside: whether its result can be a future. */
    public static CallMode ofResult(final Method m) {
        final Class<?> r = m.getReturnType();
        if (r == void.class) {
            return CallMode.ONE_WAY;
        }
        if (r == CompletableFuture.class || r == CompletionStage.class || r == Future.class) {
            return CallMode.COMPLETION_STAGE;
        }
        // A type variable erases to its bound, which the caller's cast would not match; Object likewise.
        if (m.getGenericReturnType() instanceof TypeVariable<?> || r == Object.class || !ProxyGenerator.canProxy(r)) {
            return CallMode.SYNCHRONOUS;
        }
        return CallMode.FUTURE;
    }
}
