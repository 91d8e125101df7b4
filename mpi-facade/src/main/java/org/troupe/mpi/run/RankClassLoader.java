package org.troupe.mpi.run;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * The class loader of one rank of a job run as threads: the {@code mpi} classes and the application's are loaded
 * again for each rank (child-first), so that every static, {@code MPI.COMM_WORLD} and the program's own, is per
 * rank as in a process of its own; the JDK, Troupe's own layers and their libraries are shared, among them the
 * fabric that connects the ranks.
 */
final class RankClassLoader extends URLClassLoader {
    /** Packages every rank shares: loaded by the launcher's class loader. */
    private static final List<String> SHARED = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
        "org.troupe.core.", "org.troupe.serialization.", "org.troupe.config.", "org.troupe.groups.",
        "org.troupe.deploy.", "org.troupe.mpi.fabric.", "org.troupe.mpi.run.",
        "org.slf4j.", "io.netty.", "com.esotericsoftware.", "org.objenesis.", "org.apache.commons.");

    static {
        registerAsParallelCapable();
    }

    RankClassLoader(final int rank, final URL[] urls, final ClassLoader parent) {
        super("mpi-rank-" + rank, urls, parent);
    }

    @Override
    protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException {
        if (isShared(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try {
                    c = findClass(name);
                } catch (ClassNotFoundException e) {
                    return super.loadClass(name, resolve); // not the application's: a library on the launcher's path
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    static boolean isShared(final String className) {
        for (final String prefix : SHARED) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
