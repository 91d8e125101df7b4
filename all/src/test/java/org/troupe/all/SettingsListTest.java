package org.troupe.all;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/CONFIGURATION.md is the one list of settings, from which TroupeSettings warns of unknown keys: every
 * {@code troupe.*} key that code or a launcher reads or sets is a row of its tables, or Troupe would warn of it.
 */
class SettingsListTest {
    /** The repository: this module's parent directory, where the tests run from. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** A table row's first cell, as KnownSettings reads it. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `(troupe\\.[A-Za-z0-9.]+)`");

    /** The first cell of a row of a README table: the meters' names (one or several, in backquotes). */
    private static final Pattern METER_ROW = Pattern.compile("(?m)^\\| (`[^|]+`) \\|");

    private static final Pattern METER_NAME = Pattern.compile("`(troupe\\.[A-Za-z0-9.]+)`");

    /** A key in a Java string, {@code "troupe.core.port"} or {@code "-Dtroupe.home"}; not a prefix ending in a dot. */
    private static final Pattern IN_JAVA = Pattern.compile("\"(?:-D)?(troupe\\.[A-Za-z0-9.]*[A-Za-z0-9])[\"=]");

    /** A key given to a JVM by a script: {@code -Dtroupe.home=...}. */
    private static final Pattern IN_SCRIPT = Pattern.compile("-D(troupe\\.[A-Za-z0-9.]*[A-Za-z0-9])");

    @Test
    void everySettingTheCodeAndTheLaunchersNameIsDocumented() throws IOException {
        final Set<String> documented = keys(ROW, Files.readString(ROOT.resolve("docs/CONFIGURATION.md")));
        final Set<String> named = new TreeSet<>();
        for (final Path file : files()) {
            final String text = Files.readString(file);
            named.addAll(keys(file.toString().endsWith(".java") ? IN_JAVA : IN_SCRIPT, text));
        }
        named.removeAll(documented);
        named.remove("troupe.properties"); // the settings file's name
        // Meter names share the prefix; the README's table of meters lists them.
        for (final String cell : keys(METER_ROW, Files.readString(ROOT.resolve("README.md")))) {
            named.removeAll(keys(METER_NAME, cell));
        }
        assertTrue(
                named.isEmpty(),
                "add these to docs/CONFIGURATION.md (settings), or to the README's table of meters: " + named);
    }

    @Test
    void findsTheKeysOfJavaStringsButNotPrefixesOrPackages() {
        assertTrue(keys(
                        IN_JAVA,
                        "a = \"troupe.core.port\"; b = \"-Dtroupe.home=\" + h; c = \"troupe.core.\";"
                                + " d = \"org.troupe.core\";")
                .equals(Set.of("troupe.core.port", "troupe.home")));
    }

    private static Set<String> keys(final Pattern pattern, final String text) {
        final Set<String> keys = new TreeSet<>();
        final Matcher m = pattern.matcher(text);
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /** The main sources of every module, and the launchers. */
    private static List<Path> files() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> {
                        final String relative = ROOT.relativize(p).toString();
                        return (relative.endsWith(".java") && relative.contains("src/main/java/"))
                                || relative.startsWith("bin/");
                    })
                    .filter(p -> !ROOT.relativize(p).toString().contains("/target/"))
                    .filter(p ->
                            ROOT.relativize(p).toString().split("/")[0].chars().noneMatch(c -> c == '.'))
                    .sorted()
                    .toList();
        }
    }
}
