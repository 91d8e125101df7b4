package org.troupe.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.groups.internal.GroupHandler;
import org.troupe.groups.internal.SpmdSetup;

/**
 * Making typed groups. A group of {@code T} is itself a {@code T}: {@code g.step(dt)} calls {@code step} on every
 * member in parallel; a method with a result returns a <em>result group</em>, a {@code T}-typed group of the
 * members' futures, and {@link #view} gives the management view of either.
 *
 * <pre>{@code
 * Solver solvers = Groups.newGroup(Solver.class, params, nodes);   // one member per params[i], in parallel
 * Residual r = solvers.step(0.01);     // returns at once: a group of futures
 * r.print();                           // calls print on each member as soon as its residual is there
 * Groups.view(r).waitAll();
 * }</pre>
 */
public final class Groups {
    private Groups() {}

    /**
     * Creates one active member per entry of {@code params} (its constructor arguments; null for none), member
     * {@code i} on {@code nodes[i % nodes.length]}, all in parallel. If any cannot be created, those created are
     * terminated and the exception lists every failure.
     */
    public static <T> T newGroup(final Class<T> type, final Object[][] params, final Node[] nodes) {
        return of(type, createMembers(type, params, nodes));
    }

    /** {@link #newGroup(Class, Object[][], Node[])} on this JVM's default node. */
    public static <T> T newGroup(final Class<T> type, final Object[][] params) {
        return newGroup(type, params, new Node[] {TroupeRuntime.get().defaultNode()});
    }

    /** A group of existing members: active objects, futures, groups or plain objects, of {@code type}. */
    @SafeVarargs
    public static <T> T of(final Class<T> type, final T... members) {
        return of(type, Arrays.asList(members));
    }

    /** A group of existing members, in the collection's order. */
    public static <T> T of(final Class<T> type, final Collection<? extends T> members) {
        for (final Object m : members) {
            if (!type.isInstance(m)) {
                throw new IllegalArgumentException(
                        m == null ? "A group member cannot be null" : m + " is not a " + type.getName());
            }
        }
        return GroupHandler.newGroup(type, members);
    }

    /** Whether {@code object} is a group (a typed group or a result group). */
    public static boolean isGroup(final Object object) {
        return GroupHandler.of(object) != null;
    }

    /** The management view of a group. */
    @SuppressWarnings("unchecked")
    public static <T> Group<T> view(final T group) {
        final GroupHandler h = GroupHandler.of(group);
        if (h == null) {
            throw new IllegalArgumentException(
                    (group == null ? "null" : "A " + group.getClass().getName())
                            + " is not a group (one made by Groups, or a result group)");
        }
        return new Group<>((Class<T>) h.type(), h, group);
    }

    /**
     * An SPMD group: as {@link #newGroup(Class, Object[][], Node[])}, and each member learns, before this returns,
     * its rank, the group's size and the group itself ({@link Spmd}), and can wait at the group's barriers.
     */
    public static <T> T newSpmdGroup(final Class<T> type, final Object[][] params, final Node[] nodes) {
        final List<T> members = createMembers(type, params, nodes);
        try {
            SpmdSetup.join(type, members);
        } catch (RuntimeException e) {
            members.forEach(ActiveObjects::terminate);
            throw e;
        }
        return of(type, members);
    }

    private static <T> List<T> createMembers(final Class<T> type, final Object[][] params, final Node[] nodes) {
        if (nodes == null || nodes.length == 0) {
            throw new IllegalArgumentException("A group needs at least one node to create its members on");
        }
        final List<CompletableFuture<T>> made = new ArrayList<>(params.length);
        for (int i = 0; i < params.length; i++) {
            final Object[] args = params[i];
            final Node node = nodes[i % nodes.length];
            final CompletableFuture<T> f = new CompletableFuture<>();
            Thread.ofVirtual().name("troupe-group-create-" + i).start(() -> {
                try {
                    f.complete(ActiveObjects.newActive(type, args, node));
                } catch (Throwable t) {
                    f.completeExceptionally(t);
                }
            });
            made.add(f);
        }
        final List<T> members = new ArrayList<>(params.length);
        final List<FailureSummary.Entry> failures = new ArrayList<>();
        for (int i = 0; i < made.size(); i++) {
            try {
                members.add(made.get(i).join());
            } catch (CompletionException e) {
                failures.add(new FailureSummary.Entry(i, "on " + nodes[i % nodes.length], e.getCause()));
            }
        }
        if (!failures.isEmpty()) {
            members.forEach(ActiveObjects::terminate);
            throw new TroupeException(
                    "Could not create " + failures.size() + " of " + params.length + " members of"
                            + " a group of " + type.getName() + " (the " + members.size()
                            + " created were terminated): "
                            + FailureSummary.of(failures),
                    failures.getFirst().cause());
        }
        return members;
    }
}
