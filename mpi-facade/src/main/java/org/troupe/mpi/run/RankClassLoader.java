package org.troupe.mpi.run;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.util.List;
import java.util.jar.Manifest;

/**
 * The class loader of one rank of a job run as threads: the {@code mpi} classes and the application's are loaded
 * again for each rank (child-first), so that every static, {@code MPI.COMM_WORLD} and the program's own, is per
 * rank as in a process of its own; the JDK, Troupe's own layers and their libraries are shared, among them the
 * fabric that connects the ranks. The program's calls of {@code System.exit}, {@code Runtime.exit} and
 * {@code Runtime.halt} are rewritten as its classes are loaded, to end the rank rather than the JVM ({@link RankExit}).
 */
final class RankClassLoader extends URLClassLoader {
    /** Packages every rank shares: loaded by the launcher's class loader. */
    private static final List<String> SHARED = List.of(
            "java.",
            "javax.",
            "jdk.",
            "sun.",
            "com.sun.",
            "org.troupe.core.",
            "org.troupe.serialization.",
            "org.troupe.config.",
            "org.troupe.groups.",
            "org.troupe.deploy.",
            "org.troupe.mpi.fabric.",
            "org.troupe.mpi.run.",
            "org.slf4j.",
            "io.netty.",
            "com.esotericsoftware.",
            "org.objenesis.",
            "org.apache.commons.");

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

    /** The class as the rank's: with its exit calls rewritten if it makes any, else as URLClassLoader defines it. */
    @Override
    protected Class<?> findClass(final String name) throws ClassNotFoundException {
        final URL url =
                isShared(name) ? null : findResource(name.replace('.', '/').concat(".class"));
        if (url != null) {
            try {
                final URLConnection c = url.openConnection();
                c.setUseCaches(false); // a jar opened here is closed with the stream, not kept open for ever
                try (InputStream in = c.getInputStream()) {
                    final byte[] rewritten = ExitCalls.rewrite(name, in.readAllBytes(), this);
                    if (rewritten != null) {
                        return define(name, rewritten, c); // while the jar is open: its manifest is read
                    }
                }
            } catch (IOException e) {
                // read again below, which says what is wrong
            }
        }
        return super.findClass(name);
    }

    /** Defines a rewritten class as URLClassLoader would: from its jar or directory, its package from the manifest. */
    private Class<?> define(final String name, final byte[] classFile, final URLConnection from) throws IOException {
        final boolean inJar = from instanceof JarURLConnection;
        final URL base = inJar ? ((JarURLConnection) from).getJarFileURL() : entryOf(from.getURL());
        final Manifest manifest = inJar ? ((JarURLConnection) from).getManifest() : null;
        final int dot = name.lastIndexOf('.');
        if (dot > 0 && getDefinedPackage(name.substring(0, dot)) == null) {
            try {
                if (manifest != null) {
                    definePackage(name.substring(0, dot), manifest, base);
                } else {
                    definePackage(name.substring(0, dot), null, null, null, null, null, null, null);
                }
            } catch (IllegalArgumentException e) {
                // defined meanwhile by another thread
            }
        }
        return defineClass(name, classFile, 0, classFile.length, new CodeSource(base, (CodeSigner[]) null));
    }

    /** The directory of the class path that holds {@code resource}, or null. */
    private URL entryOf(final URL resource) {
        for (final URL entry : getURLs()) {
            if (resource.toString().startsWith(entry.toString())) {
                return entry;
            }
        }
        return null;
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
