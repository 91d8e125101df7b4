package org.troupe.core.internal;

import java.lang.reflect.Method;
import java.lang.reflect.TypeVariable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.service.ActiveClass;
import org.troupe.core.service.CallMode;
import org.troupe.core.service.Immediate;
import org.troupe.core.spi.MethodTable;

/** Decides, from its signature alone, how each method of an active class is called. */
public final class CallModes {
    private static final Logger LOG = LoggerFactory.getLogger(CallModes.class);
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

    /** What {@link ArgumentFieldReads} found in a class, looked for once per class. */
    private static final ClassValue<List<String>> FIELD_READS = new ClassValue<>() {
        @Override
        protected List<String> computeValue(final Class<?> type) {
            return ArgumentFieldReads.in(type);
        }
    };

    /** Classes whose field reads were reported already: once per JVM is enough. */
    private static final Set<Class<?>> FIELD_READS_REPORTED = ConcurrentHashMap.newKeySet();

    private CallModes() {}

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

    /** How calls on objects of {@code type} run, by method signature ({@code name(ParamType, ...)}). */
    public static ActiveClass describe(final Class<?> type) {
        final MethodTable table = MethodTable.of(type);
        final CallMode[] modes = of(type);
        final Map<String, CallMode> bySignature = new LinkedHashMap<>();
        for (int i = MethodTable.TO_STRING + 1; i < table.size(); i++) {
            bySignature.put(signature(table.method(i)), modes[i]);
        }
        return new ActiveClass(
                type,
                Map.copyOf(bySignature),
                table.notIntercepted().stream().map(CallModes::signature).toList());
    }

    private static String signature(final Method m) {
        final StringBuilder b = new StringBuilder(m.getName()).append('(');
        final Class<?>[] p = m.getParameterTypes();
        for (int i = 0; i < p.length; i++) {
            b.append(i == 0 ? "" : ", ").append(p[i].getSimpleName());
        }
        return b.append(')').toString();
    }

    /**
     * Says which methods of {@code type} will make their callers wait, and which a proxy cannot intercept: the
     * call modes follow from signatures, never as a surprise. Meant to run once per class, when its first active
     * object is made.
     */
    public static void report(final Class<?> type) {
        final ActiveClass c = describe(type);
        if (!c.synchronousMethods().isEmpty()) {
            LOG.info(
                    "Active {}: calls to {} are synchronous (their results cannot be futures); see"
                            + " ActiveObjects.describe and troupe.core.synchronousCalls",
                    type.getName(),
                    c.synchronousMethods());
        }
        if (!c.notIntercepted().isEmpty()) {
            LOG.info(
                    "Active {}: final methods {} run on the proxy, not on the object; do not call them through it",
                    type.getName(),
                    c.notIntercepted());
        }
        // Futures reach the active class's methods as arguments, and its results' methods when called on futures.
        final Set<Class<?>> scanned = new LinkedHashSet<>();
        scanned.add(type);
        final CallMode[] modes = of(type);
        final MethodTable table = MethodTable.of(type);
        for (int i = 0; i < modes.length; i++) {
            if (modes[i] == CallMode.FUTURE) {
                scanned.add(table.method(i).getReturnType());
            }
        }
        for (final Class<?> s : scanned) {
            final List<String> reads = FIELD_READS.get(s);
            if (!reads.isEmpty() && FIELD_READS_REPORTED.add(s)) {
                LOG.info(
                        "{}: {}. If such an argument is a future, that reads the field of its proxy, never set:"
                                + " its default value (0, null), with no error. Read it through a method, or pass"
                                + " Futures.waitFor(future), the object itself",
                        s.getName(),
                        String.join(", ", reads));
            }
        }
    }
}
