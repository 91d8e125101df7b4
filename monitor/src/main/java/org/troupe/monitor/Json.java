package org.troupe.monitor;

import java.util.Collection;
import java.util.Map;

/** A small JSON writer: what the console's state needs (objects, arrays, strings, numbers), no library. */
final class Json {
    private final StringBuilder out = new StringBuilder(4096);
    /** Whether the next value of the open object or array needs a comma before it. */
    private boolean comma;

    Json begin() {
        sep();
        out.append('{');
        comma = false;
        return this;
    }

    Json end() {
        out.append('}');
        comma = true;
        return this;
    }

    Json beginArray() {
        sep();
        out.append('[');
        comma = false;
        return this;
    }

    Json endArray() {
        out.append(']');
        comma = true;
        return this;
    }

    /** The key of the next member of an object. */
    Json key(final String key) {
        sep();
        string(key);
        out.append(':');
        comma = false;
        return this;
    }

    Json value(final String s) {
        sep();
        string(s);
        comma = true;
        return this;
    }

    Json value(final double d) {
        sep();
        if (Double.isFinite(d)) {
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                out.append((long) d);
            } else {
                out.append(d);
            }
        } else {
            out.append("null");
        }
        comma = true;
        return this;
    }

    Json value(final boolean b) {
        sep();
        out.append(b);
        comma = true;
        return this;
    }

    Json field(final String key, final String s) {
        return key(key).value(s);
    }

    Json field(final String key, final double d) {
        return key(key).value(d);
    }

    Json strings(final String key, final Collection<String> values) {
        key(key).beginArray();
        values.forEach(this::value);
        return endArray();
    }

    Json numbers(final String key, final Map<String, Double> values) {
        key(key).begin();
        values.forEach(this::field);
        return end();
    }

    private void sep() {
        if (comma) {
            out.append(',');
        }
    }

    private void string(final String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
