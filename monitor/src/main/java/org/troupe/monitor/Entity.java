package org.troupe.monitor;

import java.util.List;

/**
 * One thing of a run as the console's tree shows it: a descriptor, a launch, a host, a JVM, a node, an active
 * object, a rank.
 *
 * @param kind what it is ({@code jvm}, {@code node}, ...)
 * @param name its name, the one used everywhere else (logs, output prefixes, failures)
 * @param state {@code starting}, {@code registered}, {@code lost}, {@code running}, ... as the source says
 * @param detail why it is in that state (a loss's reason), or where it is (a URL); may be empty
 * @param runtimeId the id of the JVM's runtime, for a JVM, which links it to its reported meters; else empty
 * @param children what it holds
 */
public record Entity(String kind, String name, String state, String detail, String runtimeId, List<Entity> children) {
    public Entity {
        children = List.copyOf(children);
    }

    /** A leaf without a runtime. */
    public static Entity of(final String kind, final String name, final String state, final String detail) {
        return new Entity(kind, name, state, detail, "", List.of());
    }
}
