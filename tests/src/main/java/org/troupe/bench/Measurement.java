package org.troupe.bench;

import java.util.Locale;

/**
 * One figure: the average cost of one operation of one implementation on one case.
 *
 * @param bytes the size the operation moves (serialized message, or raw data for copy baselines)
 */
public record Measurement(String suite, String caseName, String impl, String op, double nsPerOp, long bytes) {
    public Measurement {
        if (!Double.isFinite(nsPerOp) || nsPerOp < 0) {
            // JSON has no NaN or infinity, and a negative time is a harness bug; refuse rather than print nonsense.
            throw new IllegalArgumentException(
                    "not a time: " + nsPerOp + " ns/op for " + caseName + "/" + impl + "/" + op);
        }
    }

    /** The JSON object printed on one line of stdout. */
    public String toJson() {
        return "{\"suite\":" + quote(suite)
                + ",\"case\":" + quote(caseName)
                + ",\"impl\":" + quote(impl)
                + ",\"op\":" + quote(op)
                + ",\"ns_per_op\":" + String.format(Locale.ROOT, "%.2f", nsPerOp)
                + ",\"bytes\":" + bytes + "}";
    }

    private static String quote(final String s) {
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
}
