package org.troupe.all;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Habits the formatter cannot keep: no type is named by its fully qualified name in code where an import would
 * serve (it may where its simple name is taken in that file: imported as another type, declared there, or a type of
 * the file's own package). Comments and strings are not code. Spotless orders the imports.
 */
class SourceHabitsTest {
    /** A qualified type name: lower-case package parts, then a capitalised type, not preceded by a dot or an @. */
    private static final Pattern QUALIFIED =
            Pattern.compile("(?<![\\w.@$])((?:java|javax|jdk|org|io|com|mpi|sun)\\.(?:[a-z_]\\w*\\.)*([A-Z]\\w*))");

    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+([\\w.]+)\\.(\\w+);");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+);");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");

    /** The repository: this module's parent directory, where the tests run from. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void shouldNameTypesByImportsNotInline() throws IOException {
        final List<String> found = new ArrayList<>();
        for (final Path file : javaSources()) {
            found.addAll(inlineNames(ROOT.relativize(file), Files.readString(file)));
        }
        assertTrue(found.isEmpty(), "import these types instead of naming them in full:\n" + String.join("\n", found));
    }

    @Test
    void shouldFindAQualifiedNameInCodeButNotInCommentsOrStrings() {
        final String source = """
                package org.acme;

                import java.util.List;

                /** See {@link java.util.Map}. */
                class A {
                    String s = "java.util.Set";
                    java.util.Deque<String> d; // java.util.Queue
                    java.awt.List clash;
                }
                """;
        assertEquals(List.of("A.java:8: java.util.Deque"), inlineNames(Path.of("A.java"), source));
    }

    private static List<Path> javaSources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                    .filter(p ->
                            ROOT.relativize(p).toString().split("/")[0].chars().noneMatch(c -> c == '.'))
                    .filter(p -> !ROOT.relativize(p).toString().contains("/target/"))
                    .sorted()
                    .toList();
        }
    }

    /** The qualified names in {@code source}'s code whose simple name is free there, as {@code file:line: name}. */
    static List<String> inlineNames(final Path file, final String source) {
        final String code = codeOnly(source);
        final Matcher pkg = PACKAGE.matcher(code);
        final String ownPackage = pkg.find() ? pkg.group(1) : "";
        final Map<String, String> imported = new HashMap<>();
        final Matcher imports = IMPORT.matcher(code);
        while (imports.find()) {
            imported.put(imports.group(2), imports.group(1) + "." + imports.group(2));
        }
        final Set<String> declared = new HashSet<>();
        final Matcher types = DECLARED.matcher(code);
        while (types.find()) {
            declared.add(types.group(1));
        }
        final Path dir = ROOT.resolve(file).getParent();
        final List<String> found = new ArrayList<>();
        final String[] lines = code.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("import ") || lines[i].startsWith("package ")) {
                continue;
            }
            final Matcher m = QUALIFIED.matcher(lines[i]);
            while (m.find()) {
                final String name = m.group(1);
                final String outer = outerType(name);
                final String simple = outer.substring(outer.lastIndexOf('.') + 1);
                final boolean taken =
                        imported.containsKey(simple) && !imported.get(simple).equals(outer)
                                || declared.contains(simple)
                                || !outer.startsWith(ownPackage + ".") && Files.exists(dir.resolve(simple + ".java"));
                if (!taken) {
                    found.add(file + ":" + (i + 1) + ": " + name);
                }
            }
        }
        return found;
    }

    /** {@code java.util.Map} of {@code java.util.Map.Entry}: the top-level type, which an import would name. */
    private static String outerType(final String name) {
        final String[] parts = name.split("\\.");
        final StringBuilder outer = new StringBuilder();
        for (final String part : parts) {
            outer.append(outer.isEmpty() ? "" : ".").append(part);
            if (Character.isUpperCase(part.charAt(0))) {
                break;
            }
        }
        return outer.toString();
    }

    /** {@code source} with its comments, strings, text blocks and character literals blanked, lines kept. */
    static String codeOnly(final String source) {
        final StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            final int end;
            if (source.startsWith("//", i)) {
                end = indexOrEnd(source, "\n", i);
            } else if (source.startsWith("/*", i)) {
                end = indexOrEnd(source, "*/", i + 2) + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = indexOrEnd(source, "\"\"\"", i + 3) + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                int j = i + 1;
                while (j < source.length() && source.charAt(j) != source.charAt(i)) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                end = j + 1;
            } else {
                out.append(source.charAt(i++));
                continue;
            }
            final int stop = Math.min(end, source.length());
            for (int k = i; k < stop; k++) {
                out.append(source.charAt(k) == '\n' ? '\n' : ' ');
            }
            i = stop;
        }
        return out.toString();
    }

    private static int indexOrEnd(final String s, final String what, final int from) {
        final int at = s.indexOf(what, from);
        return at < 0 ? s.length() : at;
    }
}
