package org.troupe.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings Troupe reads, and what to say of a {@code troupe.*} key that is none of them. The keys are the first
 * cells of the tables of docs/CONFIGURATION.md, which the build copies beside this class: the documentation is the
 * one list, so a setting cannot be read without being documented, nor documented under another name, without the
 * warning telling.
 */
final class KnownSettings {
    /** The copy of docs/CONFIGURATION.md the build puts beside this class. */
    static final String RESOURCE = "CONFIGURATION.md";

    private static final Pattern ROW = Pattern.compile("^\\| `(troupe\\.[A-Za-z0-9.]+)`");
    private static final String PREFIX = "troupe.";
    private static final String VARIABLE_PREFIX = "TROUPE_";

    private final Set<String> keys;
    private final Map<String, String> byVariable;

    KnownSettings(final Collection<String> keys) {
        this.keys = Set.copyOf(keys);
        final Map<String, String> variables = new HashMap<>();
        for (final String key : keys) {
            variables.put(TroupeSettings.environmentVariable(key), key);
        }
        this.byVariable = Map.copyOf(variables);
    }

    /** The keys listed in the CONFIGURATION.md beside this class, or null if it is missing. */
    static KnownSettings documented() {
        try (InputStream in = KnownSettings.class.getResourceAsStream(RESOURCE)) {
            if (in == null) { // a build that did not copy it (an IDE's): nothing to check against
                return null;
            }
            return new KnownSettings(parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
                    .lines()
                    .toList()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The keys of a CONFIGURATION.md's tables: the first cell of each row, when it is a {@code troupe.*} key. */
    static Set<String> parse(final List<String> lines) {
        final Set<String> found = new TreeSet<>();
        for (final String line : lines) {
            final Matcher m = ROW.matcher(line);
            if (m.find()) {
                found.add(m.group(1));
            }
        }
        return found;
    }

    Set<String> keys() {
        return keys;
    }

    /**
     * One warning for each {@code troupe.*} key of {@code source} (system properties, a file) that is not a setting,
     * naming the nearest setting.
     */
    List<String> unknownKeys(final Iterable<String> names, final String source) {
        final List<String> warnings = new ArrayList<>();
        for (final String name : new TreeSet<>(toList(names))) {
            if (name.startsWith(PREFIX) && !keys.contains(name)) {
                warnings.add("Unknown setting " + name + " " + source + ", ignored: did you mean " + nearest(name, keys)
                        + "? (docs/CONFIGURATION.md lists them all)");
            }
        }
        return warnings;
    }

    /** One warning for each {@code TROUPE_*} environment variable that stands for no setting. */
    List<String> unknownVariables(final Iterable<String> names) {
        final List<String> warnings = new ArrayList<>();
        for (final String name : new TreeSet<>(toList(names))) {
            if (name.startsWith(VARIABLE_PREFIX) && !byVariable.containsKey(name)) {
                final String variable = nearest(name, byVariable.keySet());
                warnings.add("Unknown setting " + name + " (environment variable), ignored: did you mean " + variable
                        + " (" + byVariable.get(variable) + ")? (docs/CONFIGURATION.md lists them all)");
            }
        }
        return warnings;
    }

    private static List<String> toList(final Iterable<String> names) {
        final List<String> list = new ArrayList<>();
        names.forEach(list::add);
        return list;
    }

    /** The candidate fewest single-character edits away from {@code name}, ignoring case; ties: the first in order. */
    static String nearest(final String name, final Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String c : new TreeSet<>(candidates)) {
            final int d = distance(name.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    private static int distance(final String a, final String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
