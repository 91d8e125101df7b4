package mpi;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Period;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Currency;
import java.util.Date;
import java.util.Hashtable;
import java.util.Locale;
import java.util.Stack;
import java.util.UUID;
import java.util.Vector;
import org.troupe.config.TroupeSettings;
import org.troupe.mpi.fabric.RankBinding;
import org.troupe.serialization.ClassNotAllowedException;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * {@link MPI#OBJECT} data as bytes, through Troupe's serializers with this rank's class loader. Each message is
 * encoded on its own (a fresh session: it names its classes), because messages are taken in any order; references
 * are tracked, so objects shared or cyclic within a message arrive so. The program's own classes may travel, the
 * JDK's data classes ({@link #JDK_DATA} and the serialization's built-in ones), and the classes and packages the
 * settings name; others are refused. Objects whose classes serialize themselves ({@code writeObject}, {@code
 * readObject}, ...) travel through the JDK's serialization, their methods run, as MPJ Express sends every object.
 */
final class ObjectCodec {
    private static volatile SerializationConfig config;
    /** Serializable classes of the JDK that MPJ programs send, beyond the serialization's built-in data classes. */
    private static final Class<?>[] JDK_DATA = {
        Vector.class,
        Stack.class,
        Hashtable.class,
        Date.class,
        UUID.class,
        BitSet.class,
        Locale.class,
        Currency.class,
        StringBuilder.class,
        StringBuffer.class,
        Instant.class,
        Duration.class,
        LocalDate.class,
        LocalTime.class,
        LocalDateTime.class,
        Period.class
    };

    private ObjectCodec() {}

    static byte[] encode(final Object[] objects) throws MPIException {
        final CodecSession session = new CodecSession(config());
        final TroupeOutput out = session.encoder().newOutput();
        try {
            session.encoder().encode(objects, out, true);
        } catch (SerializationException e) {
            throw new MPIException(explain(e), e);
        }
        return Arrays.copyOf(out.getBuffer(), out.position());
    }

    static Object[] decode(final byte[] bytes) throws MPIException {
        try {
            return new CodecSession(config()).decoder().decode(new TroupeInput(bytes, 0, bytes.length), Object[].class);
        } catch (SerializationException e) {
            throw new MPIException(explain(e), e);
        }
    }

    /** The codec's words, and what MPI.OBJECT carries, for a class it refused. */
    private static String explain(final SerializationException e) {
        if (e instanceof ClassNotAllowedException refused) {
            return "MPI.OBJECT: " + refused.getMessage() + ". MPI.OBJECT carries the program's own classes, the JDK's"
                    + " data classes (strings, boxed and big numbers, primitive arrays, the standard collections,"
                    + " Vector, Hashtable, Date, UUID, BitSet, Locale, Currency, java.time's dates, times and"
                    + " durations) and the classes and packages named by "
                    + SerializationConfig.ALLOWED_CLASSES_PROP_NAME
                    + " and " + SerializationConfig.ALLOWED_PACKAGES_PROP_NAME + " (for bin/mpjrun, in JAVA_OPTS)";
        }
        return "MPI.OBJECT: " + e.getMessage();
    }

    private static SerializationConfig config() throws MPIException {
        SerializationConfig c = config;
        if (c == null) {
            final ClassLoader loader = ObjectCodec.class.getClassLoader();
            // The user's settings (troupe.serialization.allowedPackages, ...), then the program's own classes.
            SerializationConfig.Builder b;
            try {
                b = SerializationConfig.fromSettings(TroupeSettings.load()).toBuilder()
                        .classLoader(loader)
                        .javaSerialization(true)
                        .allowClass(JDK_DATA);
            } catch (IllegalArgumentException e) {
                throw new MPIException("MPI.OBJECT: " + e.getMessage(), e);
            }
            final RankBinding binding = MPI.binding(); // this rank's, whatever thread asks first
            if (binding != null) {
                for (final String p : binding.applicationPackages()) {
                    b.allowPackage(p);
                }
                for (final String name : binding.unnamedPackageClasses()) {
                    try {
                        b.allowClass(Class.forName(name, false, loader));
                    } catch (ClassNotFoundException | LinkageError e) {
                        // a class file that does not load here never travels either
                    }
                }
            }
            c = b.build();
            config = c;
        }
        return c;
    }
}
