package org.troupe.groups;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Futures;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.FutureTimeoutException;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.spi.Calls;
import org.troupe.core.spi.Outcome;
import org.troupe.groups.internal.GroupHandler;

/**
 * The management view of a group ({@link Groups#view}): its members, how its methods are called, and, for a result
 * group, waiting for its members. The typed group ({@link #typed()}) and this view are two faces of one group:
 * changes here show in later calls on the typed group.
 *
 * @param <T> the members' type
 */
public final class Group<T> implements Iterable<T> {
    private static final Calls CALLS = TroupeRuntime.calls();
    private final Class<T> type;
    private final GroupHandler handler;
    private final T typed;

    Group(final Class<T> type, final GroupHandler handler, final T typed) {
        this.type = type;
        this.handler = handler;
        this.typed = typed;
    }

    /** The group as a {@code T}: a call on it is a call on every member. */
    public T typed() {
        return typed;
    }

    public Class<T> type() {
        return type;
    }

    // --- Members ---

    public int size() {
        return handler.members().size();
    }

    /** Member {@code index}: an active object, a future (in a result group), a group, or a plain object. */
    public T get(final int index) {
        return type.cast(handler.members().get(index));
    }

    /** The member added under {@code name}, or null. */
    public T get(final String name) {
        return type.cast(handler.named().get(name));
    }

    public void add(final T member) {
        handler.members().add(checked(member));
    }

    /** Adds a member under a name, unique in this group. */
    public void add(final T member, final String name) {
        if (handler.named().putIfAbsent(name, checked(member)) != null) {
            throw new IllegalArgumentException("This group has a member called " + name + " already");
        }
        handler.members().add(member);
    }

    private T checked(final T member) {
        if (member == null) {
            throw new IllegalArgumentException("A group member cannot be null");
        }
        if (member == typed) {
            throw new IllegalArgumentException("A group cannot be a member of itself");
        }
        return type.cast(member);
    }

    /** Removes member {@code index} and returns it. */
    public T remove(final int index) {
        final Object removed = handler.members().remove(index);
        handler.named().values().removeIf(m -> m == removed);
        return type.cast(removed);
    }

    /** Removes {@code member}; whether it was there. */
    public boolean remove(final Object member) {
        final int i = indexOf(member);
        if (i < 0) {
            return false;
        }
        remove(i);
        return true;
    }

    /**
     * Removes the active objects that live on {@code node}'s JVM (say, one its virtual node reported lost), so that
     * later calls on the group go to the others; returns them. Other members (futures, nested groups, plain
     * objects) stay.
     */
    public List<T> removeMembersOn(final Node node) {
        final List<T> gone = new ArrayList<>();
        for (final Object m : handler.members()) {
            if (CALLS.futureOf(m) == null
                    && CALLS.isActiveObject(m)
                    && ActiveObjects.nodeBeside(m).runtimeId().equals(node.runtimeId())) {
                gone.add(type.cast(m));
            }
        }
        gone.forEach(this::remove);
        return gone;
    }

    /** The index of {@code member}, or -1. Futures are compared by identity, so this never waits. */
    public int indexOf(final Object member) {
        final List<Object> ms = handler.members();
        for (int i = 0; i < ms.size(); i++) {
            if (same(ms.get(i), member)) {
                return i;
            }
        }
        return -1;
    }

    public boolean contains(final Object member) {
        return indexOf(member) >= 0;
    }

    private static boolean same(final Object a, final Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || CALLS.futureOf(a) != null || CALLS.futureOf(b) != null) {
            return false;
        }
        return CALLS.isActiveObject(a) == CALLS.isActiveObject(b) && a.equals(b);
    }

    /** A copy of the members, in order. */
    public List<T> members() {
        final List<T> out = new ArrayList<>();
        for (final Object m : handler.members()) {
            out.add(type.cast(m));
        }
        return out;
    }

    /** The names given to members. */
    public Set<String> names() {
        return Set.copyOf(handler.named().keySet());
    }

    @Override
    public Iterator<T> iterator() {
        return members().iterator();
    }

    /** A new group of this group's members, then those of {@code other} it does not have. */
    public Group<T> union(final Group<? extends T> other) {
        final List<T> out = members();
        for (final T m : other.members()) {
            if (!contains(m)) {
                out.add(m);
            }
        }
        return Groups.view(Groups.of(type, out));
    }

    /** A new group of this group's members that {@code other} has too. */
    public Group<T> intersection(final Group<?> other) {
        return Groups.view(
                Groups.of(type, members().stream().filter(other::contains).toList()));
    }

    /** A new group of this group's members that {@code other} does not have. */
    public Group<T> difference(final Group<?> other) {
        return Groups.view(Groups.of(
                type, members().stream().filter(m -> !other.contains(m)).toList()));
    }

    // --- How calls are made ---

    /**
     * Scatter mode: an argument that is a group, or an array given for a parameter that is not an array, is
     * distributed: member {@code i} gets element {@code i} (their counts must match). Off by default (broadcast).
     */
    public Group<T> setScatter(final boolean on) {
        handler.setScatter(on);
        return this;
    }

    public boolean isScatter() {
        return handler.scatter();
    }

    /** How calls of one method are made on this group; choose personalized arguments or combined replies there. */
    public GroupMethod method(final String name, final Class<?>... parameterTypes) {
        final int index = handler.table().indexOf(name, parameterTypes);
        if (index < 0) {
            throw new IllegalArgumentException(type.getName() + " has no public method " + name
                    + Arrays.toString(parameterTypes) + " that a group can call");
        }
        final Method m = handler.table().method(index);
        return new GroupMethod(handler, index, m);
    }

    // --- Result groups: members that arrive ---

    /** Whether member {@code index} is there: not a future still waiting (a nested group: all of it is there). */
    public boolean isArrived(final int index) {
        return arrived(handler.members().get(index));
    }

    private static boolean arrived(final Object member) {
        final Outcome f = CALLS.futureOf(member);
        if (f != null) {
            return f.isDone();
        }
        final GroupHandler nested = GroupHandler.of(member);
        return nested == null || nested.members().stream().allMatch(Group::arrived);
    }

    /** How many members are there. */
    public int arrivedCount() {
        int n = 0;
        for (final Object m : handler.members()) {
            n += arrived(m) ? 1 : 0;
        }
        return n;
    }

    public boolean allArrived() {
        return arrivedCount() == size();
    }

    /** Waits until every member is there, values and failures alike; failures are read with {@link #failures()}. */
    public void waitAll() {
        waitN(size());
    }

    /**
     * As {@link #waitAll()}, giving up after {@code timeout} with a {@link FutureTimeoutException} that names the
     * members still awaited.
     */
    public void waitAll(final Duration timeout) {
        final int n = size();
        await(() -> arrivedCount() >= n, timeout, () -> "waitAll");
    }

    /** Waits until at least {@code n} members are there. */
    public void waitN(final int n) {
        waitN(n, null);
    }

    /** As {@link #waitN(int)}, giving up after {@code timeout} (see {@link #waitAll(Duration)}). */
    public void waitN(final int n, final Duration timeout) {
        if (n < 0 || n > size()) {
            throw new IllegalArgumentException("Cannot wait for " + n + " members of a group of " + size());
        }
        await(() -> arrivedCount() >= n, timeout, () -> "waitN(" + n + ")");
    }

    /** Waits until one member is there and returns its index (the lowest, if several are). */
    public int waitAny() {
        return waitAny(null);
    }

    /** As {@link #waitAny()}, giving up after {@code timeout} (see {@link #waitAll(Duration)}). */
    public int waitAny(final Duration timeout) {
        if (size() == 0) {
            throw new IllegalStateException("waitAny on an empty group");
        }
        await(() -> arrivedCount() >= 1, timeout, () -> "waitAny");
        for (int i = 0; i < size(); i++) {
            if (isArrived(i)) {
                return i;
            }
        }
        throw new IllegalStateException("unreachable: a member arrived");
    }

    /**
     * Waits for member {@code index} and returns its value; throws its failure, if it failed. A nested group is
     * returned once all of it is there.
     */
    public T waitTheNth(final int index) {
        return waitTheNth(index, null);
    }

    /** As {@link #waitTheNth(int)}, giving up after {@code timeout} (see {@link #waitAll(Duration)}). */
    public T waitTheNth(final int index, final Duration timeout) {
        final Object member = handler.members().get(index);
        if (CALLS.futureOf(member) != null) {
            // Its timeout names the member's call: "No result from Worker.step on Worker#1@... (member 1 of 4)".
            return type.cast(timeout == null ? Futures.waitFor(member) : Futures.waitFor(member, timeout));
        }
        await(() -> arrived(member), timeout, () -> "waitTheNth(" + index + ")");
        return type.cast(member);
    }

    /** Waits until {@code done}; with a timeout, no longer than it, then throws naming what is still awaited. */
    private void await(final BooleanSupplier done, final Duration timeout, final Supplier<String> wait) {
        if (!handler.awaitArrivals(done, timeout)) {
            throw new FutureTimeoutException(wait.get() + " timed out after " + timeout.toMillis() + " ms on "
                    + handler.awaited(this::isArrived));
        }
    }

    /**
     * The members that arrived as failures, in member order (members still awaited are not waited for). Each
     * names the member of the called group that failed, when this is the result group of a call made here.
     */
    public List<MemberFailure> failures() {
        final List<MemberFailure> out = new ArrayList<>();
        final List<Object> ms = handler.members();
        for (int i = 0; i < ms.size(); i++) {
            final Outcome f = CALLS.futureOf(ms.get(i));
            if (f != null && f.isDone() && f.failure() != null) {
                out.add(new MemberFailure(i, handler.called(ms.get(i)), f.failure()));
            }
        }
        return out;
    }

    /**
     * Removes the members that died: those whose slot in {@code results}, the result group of a call made on this
     * group since its members last changed, failed because the member is terminated or its JVM is gone. Returns
     * the members removed.
     */
    public List<T> purgeDead(final Group<?> results) {
        if (results.size() != size()) {
            throw new IllegalArgumentException("The result group has " + results.size() + " members and this group "
                    + size() + ": it is not the result of a call on this group as it is now");
        }
        final List<T> dead = new ArrayList<>();
        for (final MemberFailure f : results.failures()) {
            if (diedOf(f.cause())) {
                dead.add(get(f.index()));
            }
        }
        for (final T d : dead) {
            final Object gone = d;
            handler.members().removeIf(m -> m == gone);
            handler.named().values().removeIf(m -> m == gone);
        }
        return dead;
    }

    private static boolean diedOf(final Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof PeerFailedException || c instanceof TerminatedException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "Group<" + type.getSimpleName() + ">" + handler.members();
    }
}
