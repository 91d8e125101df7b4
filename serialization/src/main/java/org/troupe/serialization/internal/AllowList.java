package org.troupe.serialization.internal;

import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.troupe.serialization.ArraySlice;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.WireForm;

/**
 * Decides which classes may be written or instantiated from the wire. Works on binary names, so a class named by
 * hostile bytes is judged before it is loaded. Thread-safe.
 */
public final class AllowList {
    /** Safe data classes every session allows: no behaviour runs when they are read. */
    private static final Set<String> BUILT_IN = Set.of(
            "java.lang.Object", // so Object[] (e.g. call arguments) may carry allowed elements
            "java.lang.Boolean",
            "java.lang.Byte",
            "java.lang.Short",
            "java.lang.Character",
            "java.lang.Integer",
            "java.lang.Long",
            "java.lang.Float",
            "java.lang.Double",
            "java.lang.String",
            "java.math.BigInteger",
            "java.math.BigDecimal",
            "java.util.ArrayList",
            "java.util.LinkedList",
            "java.util.ArrayDeque",
            "java.util.HashMap",
            "java.util.LinkedHashMap",
            "java.util.TreeMap",
            "java.util.HashSet",
            "java.util.LinkedHashSet",
            "java.util.TreeSet",
            "java.util.Arrays$ArrayList",
            "java.util.ImmutableCollections$List12",
            "java.util.ImmutableCollections$ListN",
            "java.util.ImmutableCollections$Set12",
            "java.util.ImmutableCollections$SetN",
            "java.util.ImmutableCollections$Map1",
            "java.util.ImmutableCollections$MapN",
            "java.util.Collections$EmptyList",
            "java.util.Collections$EmptySet",
            "java.util.Collections$EmptyMap",
            "java.util.Collections$SingletonList",
            "java.util.Collections$SingletonSet",
            "java.util.Collections$SingletonMap",
            ArraySlice.class.getName());

    private final SerializationConfig config;
    private final Set<String> classes;
    private final List<String> packagePrefixes;
    private final List<Class<?>> replaced;

    public AllowList(final SerializationConfig config, final List<WireForm<?, ?>> forms) {
        this.config = config;
        final Set<String> names = new HashSet<>(BUILT_IN);
        for (final Class<?> c : config.allowedClasses()) {
            names.add(c.getName());
        }
        names.addAll(config.allowedClassNames());
        for (final WireForm<?, ?> form : forms) {
            names.add(form.wireType().getName());
        }
        this.replaced = forms.stream().<Class<?>>map(WireForm::type).toList();
        this.classes = Set.copyOf(names);
        this.packagePrefixes =
                config.allowedPackages().stream().map(p -> p + ".").toList();
    }

    /** The configuration this list comes from, whose advice a refusal gives. */
    SerializationConfig config() {
        return config;
    }

    /** Whether {@code type} (not an array) crosses as a {@link WireForm}'s wire type, never by its own name. */
    boolean replaces(final Class<?> type) {
        for (final Class<?> r : replaced) {
            if (r.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a loaded class may cross the wire. Enum constants with bodies count as their enum; hidden classes
     * (lambdas among them) never cross: no peer could load them by name.
     */
    public boolean allows(final Class<?> type) {
        Class<?> c = type;
        while (c.isArray()) {
            c = c.getComponentType();
        }
        if (c.isPrimitive() || (type.isArray() && abstractJdkType(c))) {
            return true;
        }
        if (replaces(c)) {
            return true;
        }
        if (c.isHidden()) {
            return false;
        }
        if (c.isAnonymousClass()
                && c.getSuperclass() != null
                && c.getSuperclass().isEnum()) {
            c = c.getSuperclass();
        }
        return allows(c.getName());
    }

    /**
     * Whether {@code name} is an interface or abstract class of the JDK ({@code Runnable}, {@code Comparable},
     * {@code Number}...), loaded without initialising it from the JDK alone: an array of it instantiates nothing of
     * it, and each of its elements is judged as any object is.
     */
    static boolean abstractJdkType(final String name) {
        if (!name.startsWith("java.")) {
            return false;
        }
        try {
            return abstractJdkType(Class.forName(name, false, ClassLoader.getPlatformClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static boolean abstractJdkType(final Class<?> c) {
        return c.getName().startsWith("java.")
                && c.getClassLoader() == null
                && (c.isInterface() || Modifier.isAbstract(c.getModifiers()));
    }

    /**
     * Whether a class named on the wire (binary name, or an array descriptor such as {@code [[D}) may be loaded.
     * Not cached: it runs once per class definition, and a cache keyed by names from the wire would grow with them.
     */
    public boolean allows(final String name) {
        if (name.startsWith("[")) {
            final int dims = name.lastIndexOf('[') + 1;
            final String element = name.substring(dims);
            if (element.length() == 1) {
                return "ZBCSIJFD".contains(element);
            }
            if (!element.startsWith("L") || !element.endsWith(";")) {
                return false;
            }
            final String elementName = element.substring(1, element.length() - 1);
            return allows(elementName) || abstractJdkType(elementName);
        }
        if (classes.contains(name)) {
            return true;
        }
        for (final String prefix : packagePrefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
