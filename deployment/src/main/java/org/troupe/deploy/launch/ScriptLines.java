package org.troupe.deploy.launch;

import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The lines of a script's output, each ended by '\n' alone, as the shell's {@code read} ends them: a '\r' in what a
 * node JVM printed stays in its line (Java's own line readers would start a new line there, which could then pass
 * for one of the script's tags, a JVM's exit among them). A line longer than {@link #MAX_CHARS} is cut in pieces.
 */
final class ScriptLines {
    static final int MAX_CHARS = 65_536;

    private ScriptLines() {}

    /** The next line of {@code in} (buffered), without its '\n' (nor a '\r' before it); null at its end. */
    static String next(final Reader in) throws IOException {
        final StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0; c = in.read()) {
            if (c == '\n') {
                return withoutCr(line);
            }
            line.append((char) c);
            if (line.length() == MAX_CHARS) {
                return line.toString();
            }
        }
        return line.isEmpty() ? null : line.toString();
    }

    /** Gives {@code sink} every line of {@code in} (buffered), to its end. */
    static void forEach(final Reader in, final Consumer<String> sink) throws IOException {
        for (String line = next(in); line != null; line = next(in)) {
            sink.accept(line);
        }
    }

    /** The lines of {@code text}, cut as {@link #next} cuts them. */
    static Stream<String> of(final String text) {
        final String[] lines = text.split("\n", -1);
        final int n = text.endsWith("\n") || text.isEmpty() ? lines.length - 1 : lines.length;
        return Arrays.stream(lines, 0, n).map(l -> l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
    }

    private static String withoutCr(final StringBuilder line) {
        final int n = line.length();
        return n > 0 && line.charAt(n - 1) == '\r' ? line.substring(0, n - 1) : line.toString();
    }
}
