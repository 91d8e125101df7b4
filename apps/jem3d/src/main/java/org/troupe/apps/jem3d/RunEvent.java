package org.troupe.apps.jem3d;

import java.util.Locale;

/**
 * Something that changed a run while it went: a node lost, a restart from a checkpoint, nodes that joined, a run
 * resumed from disk. The report lists them in order.
 *
 * @param step the steps every subdomain had completed when it happened (for a restart: the checkpoint's step)
 * @param text what happened and why, one line, as the run printed it
 * @param stepsRedone the steps made again because of it (a restart: those after its checkpoint), else 0
 * @param secondsLost the seconds from the loss being noticed to the run stepping again (a restart), else 0
 */
public record RunEvent(Kind kind, int step, String text, int stepsRedone, double secondsLost) {
    /** What kind of event it is. */
    public enum Kind {
        /** A node JVM was lost. */
        LOST,
        /** The run restarted from a checkpoint, on a replacement node or on a new division. */
        RESTARTED,
        /** Nodes that came late joined the run. */
        GREW,
        /** The run resumed from a checkpoint on disk. */
        RESUMED;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The event as the JSON object of {@code --json}'s {@code events}. */
    String toJson() {
        return "{\"event\":\"" + kind + "\",\"step\":" + step + ",\"text\":\"" + escape(text) + "\",\"steps_redone\":"
                + stepsRedone + ",\"seconds_lost\":" + String.format(Locale.ROOT, "%.3f", secondsLost) + "}";
    }

    private static String escape(final String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
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
        return b.toString();
    }

    @Override
    public String toString() {
        return "step " + step + ": " + text
                + (kind == Kind.RESTARTED
                        ? String.format(
                                Locale.ROOT,
                                " (%d step%s to redo, %.1f s after the loss)",
                                stepsRedone,
                                stepsRedone == 1 ? "" : "s",
                                secondsLost)
                        : "");
    }
}
