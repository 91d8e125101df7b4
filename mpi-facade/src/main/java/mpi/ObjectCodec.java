package mpi;

import java.util.Arrays;
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
 * JDK's plain value classes, and the packages {@code troupe.serialization.allowedPackages} names; others are refused.
 */
final class ObjectCodec {
    private static volatile SerializationConfig config;

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
            return "MPI.OBJECT: Class " + refused.className() + " is not allowed to cross the wire. MPI.OBJECT"
                    + " carries the program's own classes, the JDK's plain value classes (strings, boxed numbers, big numbers, lists, sets,"
                    + " maps, primitive arrays) and the packages named by -Dtroupe.serialization.allowedPackages=...;"
                    + " other JDK classes do not travel: send their contents";
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
                        .classLoader(loader);
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
