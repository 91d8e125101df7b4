package org.troupe.apps.jem3d;

import java.util.Locale;

/** What a run does when the deployment gives fewer nodes than it asked for. */
public enum Adapt {
    /** Divide the planned mesh among the nodes obtained (the default). */
    DIVIDE,
    /** Wait another timeout for at least the minimum number of nodes, then divide among those obtained. */
    WAIT,
    /** Make the mesh smaller so that each node obtained has the work a node was planned to have. */
    SHRINK,
    /**
     * Divide the mesh among the nodes obtained, and take the nodes that come later, up to the number asked for: at
     * the next checkpoint the run stops after a step and goes on re-divided onto all of them.
     */
    GROW;

    public static Adapt parse(final String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "adapt policy '" + text + "' is unknown: use divide, wait, shrink or grow");
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
