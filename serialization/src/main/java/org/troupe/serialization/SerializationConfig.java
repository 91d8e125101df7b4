package org.troupe.serialization;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.commons.configuration2.ImmutableConfiguration;
import org.troupe.serialization.internal.AllowList;

/**
 * What a {@link CodecSession} may serialize and how: the allow-list, reference tracking and the size and depth
 * bounds that protect a reader from hostile input. Immutable; build one with {@link #builder()} or read one from
 * the Troupe settings with {@link #fromSettings(ImmutableConfiguration)}.
 *
 * <p>Safe by default: nothing but primitives, boxes, strings, primitive arrays, {@link ArraySlice} and a few
 * standard collections may cross the wire until the application allows its own classes or packages. Allowing a
 * class allows it as a field type, as an array element and as a runtime type alike.
 *
 * <p>Settings keys (all documented in {@code docs/CONFIGURATION.md}):
 * <ul>
 *   <li>{@value #ALLOWED_PACKAGES_PROP_NAME}: comma-separated package prefixes whose classes may be instantiated;</li>
 *   <li>{@value #ALLOWED_CLASSES_PROP_NAME}: comma-separated binary names of single classes that may be, the JDK's
 *       among them;</li>
 *   <li>{@value #MAX_MESSAGE_BYTES_PROP_NAME}: the largest message written or read, default {@value #MAX_MESSAGE_BYTES_DEFAULT};</li>
 *   <li>{@value #MAX_DEPTH_PROP_NAME}: the deepest nesting of objects, default {@value #MAX_DEPTH_DEFAULT};</li>
 *   <li>{@value #REFERENCES_PROP_NAME}: track shared and cyclic references in every message, default false.</li>
 * </ul>
 */
public final class SerializationConfig {
    public static final String ALLOWED_PACKAGES_PROP_NAME = "troupe.serialization.allowedPackages";
    public static final String ALLOWED_CLASSES_PROP_NAME = "troupe.serialization.allowedClasses";
    public static final String MAX_MESSAGE_BYTES_PROP_NAME = "troupe.serialization.maxMessageBytes";
    public static final int MAX_MESSAGE_BYTES_DEFAULT = 256 * 1024 * 1024;
    /** The largest message a byte array (and a link's frame, which adds a few bytes) can hold. */
    public static final int MAX_MESSAGE_BYTES_LIMIT = Integer.MAX_VALUE - 64;

    public static final String MAX_DEPTH_PROP_NAME = "troupe.serialization.maxDepth";
    /**
     * Deep enough for the graphs solvers send (a chain through a last self-typed field does not count: it is
     * iterated). A graph that overflows the stack of the thread that reads or writes it is read or written again on
     * a thread whose stack is sized for this limit, so that the limit, not the thread, decides.
     */
    public static final int MAX_DEPTH_DEFAULT = 2_000;

    public static final String REFERENCES_PROP_NAME = "troupe.serialization.references";

    private final Set<Class<?>> allowedClasses;
    private final Set<String> allowedClassNames;
    private final List<String> allowedPackages;
    private final int maxMessageBytes;
    private final int maxDepth;
    private final boolean references;
    private final Set<Class<?>> referenceClasses;
    private final ClassLoader classLoader;
    private final boolean javaSerialization;

    private SerializationConfig(final Builder b) {
        this.allowedClasses = Set.copyOf(b.allowedClasses);
        this.allowedClassNames = Collections.unmodifiableSet(new LinkedHashSet<>(b.allowedClassNames)); // as given
        this.allowedPackages = List.copyOf(b.allowedPackages);
        this.maxMessageBytes = b.maxMessageBytes;
        this.maxDepth = b.maxDepth;
        this.references = b.references;
        this.referenceClasses = Set.copyOf(b.referenceClasses);
        this.classLoader = b.classLoader;
        this.javaSerialization = b.javaSerialization;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Built-in defaults: the safe allow-list only, no reference tracking. */
    public static SerializationConfig defaults() {
        return builder().build();
    }

    /** Reads the {@code troupe.serialization.*} keys of the Troupe settings; absent keys keep their defaults. */
    public static SerializationConfig fromSettings(final ImmutableConfiguration settings) {
        final Builder b = builder();
        for (final String p : settings.getList(String.class, ALLOWED_PACKAGES_PROP_NAME, List.of())) {
            for (final String part : p.split(",")) {
                if (!part.isBlank()) {
                    b.allowPackage(part.strip());
                }
            }
        }
        for (final String c : settings.getList(String.class, ALLOWED_CLASSES_PROP_NAME, List.of())) {
            for (final String part : c.split(",")) {
                if (!part.isBlank()) {
                    b.allowClassName(part.strip());
                }
            }
        }
        b.maxMessageBytes(settings.getInt(MAX_MESSAGE_BYTES_PROP_NAME, MAX_MESSAGE_BYTES_DEFAULT));
        b.maxDepth(settings.getInt(MAX_DEPTH_PROP_NAME, MAX_DEPTH_DEFAULT));
        b.references(settings.getBoolean(REFERENCES_PROP_NAME, false));
        return b.build();
    }

    /** A builder holding this configuration's values, to derive another from it. */
    public Builder toBuilder() {
        final Builder b = builder();
        b.allowedClasses.addAll(allowedClasses);
        b.allowedClassNames.addAll(allowedClassNames);
        b.allowedPackages.addAll(allowedPackages);
        b.referenceClasses.addAll(referenceClasses);
        b.classLoader = classLoader;
        b.javaSerialization = javaSerialization;
        return b.maxMessageBytes(maxMessageBytes).maxDepth(maxDepth).references(references);
    }

    /** The class loader that loads the classes named by peers; null for the serialization library's own. */
    public ClassLoader classLoader() {
        return classLoader;
    }

    /**
     * Whether a class named by a peer (a binary name) may be loaded and instantiated under this configuration, for
     * code that instantiates classes by name outside a message (the class of a remote active object).
     */
    public boolean allowsClassName(final String binaryName) {
        return new AllowList(this, List.of()).allows(binaryName);
    }

    public Set<Class<?>> allowedClasses() {
        return allowedClasses;
    }

    /** The binary names of single classes allowed, as {@value #ALLOWED_CLASSES_PROP_NAME} gives them. */
    public Set<String> allowedClassNames() {
        return allowedClassNames;
    }

    public List<String> allowedPackages() {
        return allowedPackages;
    }

    /**
     * Whether objects of the classes that serialize themselves ({@code writeObject}, {@code readObject}, {@code
     * readResolve}, {@code writeReplace}, {@code Externalizable}), and of the JDK's serializable classes Troupe
     * has no serializer for, travel through the JDK's serialization, their own methods run, as MPJ Express sends
     * {@code MPI.OBJECT} data; every class it names is still judged by the allow-list. Off by default: elsewhere
     * Troupe runs no {@code readObject} of a peer's choosing.
     */
    public boolean javaSerialization() {
        return javaSerialization;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public int maxDepth() {
        return maxDepth;
    }

    /** Whether every message tracks shared and cyclic references unless the sender says otherwise. */
    public boolean references() {
        return references;
    }

    /** Classes whose instances are tracked as references in every message, even when {@link #references()} is off. */
    public Set<Class<?>> referenceClasses() {
        return referenceClasses;
    }

    /** A binary name: Java identifiers joined by dots, nested classes after a '$'; no array. */
    private static final Pattern BINARY_NAME =
            Pattern.compile("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
                    + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

    /** Packages of the JDK: no allowed package may be one of them, inside one, or hold one. */
    private static final List<String> JDK_PACKAGES = List.of("java", "javax", "jdk", "sun", "com.sun");

    /** Which of the JDK's classes cross the wire, for the messages that refuse the others (README, Serialization). */
    static final String JDK_CLASSES_SENT = "Of the JDK's classes, the boxes, String, BigInteger, BigDecimal and the"
            + " standard collections always cross the wire; enums, java.time values, Date, UUID, Optional, Locale,"
            + " Currency and collections with a public no-argument constructor cross once allowed one by one ("
            + ALLOWED_CLASSES_PROP_NAME + "=java.util.Vector,...); no other does";

    /** Whether a binary name is in a package of the JDK. */
    static boolean isJdkName(final String binaryName) {
        for (final String jdk : JDK_PACKAGES) {
            if (binaryName.startsWith(jdk + ".")) {
                return true;
            }
        }
        return false;
    }

    /**
     * How to allow the class {@code binaryName} (not an array) in this configuration, in the words of an error that
     * refused it: the one place this advice is written, so every refusal gives the same. For a class of an
     * application's package it is the exact value of {@value #ALLOWED_PACKAGES_PROP_NAME} to set (the packages
     * allowed now and this one), in the forms of a JVM option and of {@code bin/deploy}.
     */
    public String howToAllow(final String binaryName) {
        final int dot = binaryName.lastIndexOf('.');
        final String source = sourceName(binaryName.substring(dot + 1));
        final String alone = source == null
                ? ""
                : " with -D" + ALLOWED_CLASSES_PROP_NAME + "=" + String.join(",", withName(binaryName))
                        + " (or in code SerializationConfig.Builder.allowClass(" + source + ".class))";
        if (isJdkName(binaryName)) {
            return "a JDK package cannot be allowed whole"
                    + (alone.isEmpty() ? "" : ": allow the class alone, in every JVM's configuration," + alone);
        }
        if (dot < 0) {
            return "it is in the unnamed package, which cannot be allowed whole: move it into a package"
                    + (alone.isEmpty() ? "" : ", or allow it alone" + alone);
        }
        final String pkg = binaryName.substring(0, dot);
        final List<String> value = new ArrayList<>(allowedPackages);
        value.add(pkg);
        final String option = "-D" + ALLOWED_PACKAGES_PROP_NAME + "=" + String.join(",", value);
        return "allow its package: " + option + " (with bin/deploy: JAVA_OPTS=" + option + " bin/deploy ...),"
                + " or in code SerializationConfig.Builder.allowPackage(\"" + pkg + "\")";
    }

    /** The single classes allowed by name now, and {@code binaryName}: the setting's value that adds it. */
    private List<String> withName(final String binaryName) {
        final List<String> names = new ArrayList<>(allowedClassNames);
        names.add(binaryName);
        return names;
    }

    /** {@code Outer$Inner} as written in Java source, {@code Outer.Inner}; null for a class source cannot name. */
    private static String sourceName(final String simpleBinaryName) {
        final String[] parts = simpleBinaryName.split("\\$", -1);
        for (final String part : parts) {
            if (part.isEmpty() || Character.isDigit(part.charAt(0)) || part.contains("/")) {
                return null; // anonymous, local or hidden
            }
        }
        return String.join(".", parts);
    }

    /** Fluent builder; {@link #build()} checks the values. */
    public static final class Builder {
        private final Set<Class<?>> allowedClasses = new LinkedHashSet<>();
        private final Set<String> allowedClassNames = new LinkedHashSet<>();
        private final List<String> allowedPackages = new ArrayList<>();
        private int maxMessageBytes = MAX_MESSAGE_BYTES_DEFAULT;
        private int maxDepth = MAX_DEPTH_DEFAULT;
        private boolean references;
        private final Set<Class<?>> referenceClasses = new LinkedHashSet<>();
        private ClassLoader classLoader;
        private boolean javaSerialization;

        private Builder() {}

        /**
         * Loads the classes peers name with {@code loader} instead of the library's own: for code whose classes
         * are loaded apart, as the ranks of an MPI job run as threads, each with its own loader.
         */
        public Builder classLoader(final ClassLoader loader) {
            this.classLoader = loader;
            return this;
        }

        /** Allows these classes (and arrays of them) to be written and instantiated from the wire. */
        public Builder allowClass(final Class<?>... classes) {
            allowedClasses.addAll(List.of(classes));
            return this;
        }

        /**
         * Allows these classes by binary name ({@code java.util.Vector}, {@code org.acme.Mesh$Cell}), loaded or not:
         * a class of the JDK one at a time, as {@value #ALLOWED_CLASSES_PROP_NAME} does.
         */
        public Builder allowClassName(final String... binaryNames) {
            for (final String n : binaryNames) {
                if (!BINARY_NAME.matcher(n).matches()) {
                    throw new IllegalArgumentException("'" + n + "' is not a class's binary name (expected e.g."
                            + " java.util.Vector or org.acme.Mesh$Cell) in " + ALLOWED_CLASSES_PROP_NAME);
                }
                allowedClassNames.add(n);
            }
            return this;
        }

        /** Sends the classes that serialize themselves with Java serialization: see {@link #javaSerialization()}. */
        public Builder javaSerialization(final boolean on) {
            this.javaSerialization = on;
            return this;
        }

        /** Allows every class in these packages and their sub-packages, e.g. {@code "org.acme.solver"}. */
        public Builder allowPackage(final String... packages) {
            for (final String p : packages) {
                if (p.isBlank() || p.startsWith(".") || p.endsWith(".")) {
                    throw new IllegalArgumentException(
                            "'" + p + "' is not a package name (expected e.g. org.acme.solver)");
                }
                for (final String jdk : JDK_PACKAGES) {
                    if ((p + ".").startsWith(jdk + ".") || (jdk + ".").startsWith(p + ".")) {
                        throw new IllegalArgumentException("'" + p + "' holds JDK classes and cannot be allowed"
                                + " whole: a peer could instantiate any of them. " + JDK_CLASSES_SENT);
                    }
                }
                allowedPackages.add(p);
            }
            return this;
        }

        public Builder maxMessageBytes(final int bytes) {
            if (bytes < 64 || bytes > MAX_MESSAGE_BYTES_LIMIT) {
                throw new IllegalArgumentException(MAX_MESSAGE_BYTES_PROP_NAME + " must be between 64 and "
                        + MAX_MESSAGE_BYTES_LIMIT + ", got " + bytes);
            }
            this.maxMessageBytes = bytes;
            return this;
        }

        public Builder maxDepth(final int depth) {
            if (depth < 1) {
                throw new IllegalArgumentException(MAX_DEPTH_PROP_NAME + " must be at least 1, got " + depth);
            }
            this.maxDepth = depth;
            return this;
        }

        /** Tracks shared and cyclic references in every message by default (one byte more per object). */
        public Builder references(final boolean on) {
            this.references = on;
            return this;
        }

        /** Tracks references for instances of these classes in every message. */
        public Builder referencesFor(final Class<?>... classes) {
            referenceClasses.addAll(List.of(classes));
            return this;
        }

        public SerializationConfig build() {
            return new SerializationConfig(this);
        }
    }
}
