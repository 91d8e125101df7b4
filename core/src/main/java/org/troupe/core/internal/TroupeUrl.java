package org.troupe.core.internal;

/**
 * A {@code troupe://host:port/name} URL: a node ({@code name} is the node's) or a registered active object of the
 * runtime listening at {@code host:port}.
 *
 * @param address where the runtime listens, {@code host:port}
 * @param name what the URL names in that runtime
 */
public record TroupeUrl(String address, String name) {
    private static final String SCHEME = "troupe://";

    /** Whether {@code text} is written as a Troupe URL (and so names something in another runtime). */
    public static boolean isUrl(final String text) {
        return text.startsWith(SCHEME);
    }

    /** Parses {@code troupe://host:port/name}; {@code what} says what the URL should name, for the error. */
    public static TroupeUrl parse(final String text, final String what) {
        final String rest = isUrl(text) ? text.substring(SCHEME.length()) : "";
        final int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a " + what + " URL (" + SCHEME + "host:port/" + what + ")");
        }
        return new TroupeUrl(rest.substring(0, slash), rest.substring(slash + 1));
    }
}
