package org.troupe.mpi.run;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The classes of a program's class path: their named packages, and the classes of the unnamed package. An MPI job
 * lets these travel as {@code MPI.OBJECT} without the user naming them.
 */
record ApplicationClasses(List<String> packages, List<String> unnamedPackageClasses) {
    static ApplicationClasses of(final List<URL> classPath) {
        final TreeSet<String> packages = new TreeSet<>();
        final TreeSet<String> unnamed = new TreeSet<>();
        for (final URL url : classPath) {
            final List<String> names = new ArrayList<>();
            try {
                final Path p = Path.of(url.toURI());
                if (Files.isDirectory(p)) {
                    try (Stream<Path> files = Files.walk(p)) {
                        files.filter(f -> f.toString().endsWith(".class"))
                                .forEach(f -> names.add(p.relativize(f)
                                        .toString()
                                        .replace(p.getFileSystem().getSeparator(), "/")));
                    }
                } else if (Files.isRegularFile(p)) {
                    try (JarFile jar = new JarFile(p.toFile())) {
                        jar.stream()
                                .map(e -> e.getName())
                                .filter(n -> n.endsWith(".class"))
                                .forEach(names::add);
                    }
                }
            } catch (IOException | URISyntaxException | IllegalArgumentException e) {
                continue; // an entry that cannot be read lends no classes
            }
            for (final String n : names) {
                if (n.startsWith("META-INF/") || n.endsWith("module-info.class") || n.endsWith("package-info.class")) {
                    continue;
                }
                final String binary =
                        n.substring(0, n.length() - ".class".length()).replace('/', '.');
                final int dot = binary.lastIndexOf('.');
                if (dot < 0) {
                    unnamed.add(binary);
                } else if (!RankClassLoader.isShared(binary)) {
                    packages.add(binary.substring(0, dot));
                }
            }
        }
        return new ApplicationClasses(List.copyOf(packages), List.copyOf(unnamed));
    }
}
