package org.troupe.apps.jem3d;

import java.util.Locale;

/** What a run does when a node JVM it runs on is lost (it died, froze past the peer timeout, or was cut off). */
public enum OnLoss {
    /**
     * Go on (the default): stop the other subdomains, take a replacement node if the deployment gives one within
     * the timeout, else divide the mesh among the nodes left, and restart every subdomain from the last complete
     * checkpoint.
     */
    CONTINUE,
    /** End the run with an error naming the lost subdomains. */
    FAIL;

    public static OnLoss parse(final String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("on-loss policy '" + text + "' is unknown: use continue or fail");
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
