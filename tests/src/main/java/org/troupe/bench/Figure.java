package org.troupe.bench;

import java.util.Locale;

/** One printed result: a JSON object on one line of stdout, whose fields each suite documents. */
public interface Figure {
    String toJson();

    /** {@code s} as a JSON string. */
    static String quote(final String s) {
        final StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** A time or rate with two decimals; refuses what JSON cannot hold (NaN, infinities) and negatives. */
    static String number(final double value, final String what) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException("not a " + what + ": " + value);
        }
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
