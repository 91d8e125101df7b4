package org.troupe.groups.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.service.CallMode;
import org.troupe.core.spi.Calls;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.PortableHandler;
import org.troupe.core.spi.Proxies;
import org.troupe.core.spi.Spin;
import org.troupe.groups.Combiner;
import org.troupe.groups.GroupCallException;
import org.troupe.groups.MemberFailure;
import org.troupe.serialization.SerializationException;

/**
 * Behind the proxy of a group: its members, and what a call on it does. A member may be an active object (local
 * or remote), a future (a result group's member), a group (nested), or a plain object. Active members are called
 * together through {@link Calls}, so members of one other JVM get one message per call; a future member is called
 * when its value arrives (wait-by-necessity, member by member).
 */
public final class GroupHandler implements PortableHandler {
    private static final Calls CALLS = TroupeRuntime.calls();
    private static final Proxies PROXIES = TroupeRuntime.proxies();
    /** Awaited members named in a timeout's message; the rest are counted. */
    private static final int MAX_NAMED = 5;

    private final Class<?> type;
    private final MethodTable table;
    private final List<Object> members;
    private final Map<String, Object> named = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<MethodConfig> configs;
    private final Spin spin;
    private volatile boolean scatter;
    /** Signalled whenever a member of this (result) group arrives; see {@link #awaitArrivals}. */
    private final Arrivals arrivals = new Arrivals();
    /** For a result group: the call it is the results of; else null. */
    private final Origin origin;
    /** Failures of one-way calls on this group that came after they returned, not yet thrown. */
    private final OneWayFailureLog oneWayFailures = new OneWayFailureLog();

    public GroupHandler(final Class<?> type, final Collection<?> members) {
        this(type, members, new Spin(TroupeRuntime.spinSetting().toNanos()), null);
    }

    /** A group whose waits spin as {@code spin} says: a result group shares its caller group's. */
    private GroupHandler(final Class<?> type, final Collection<?> members, final Spin spin, final Origin origin) {
        if (!PROXIES.canProxy(type)) {
            throw new IllegalArgumentException("There can be no group of " + type.getName() + ": a group is a proxy of"
                    + " its type, which must be an interface or a class that is neither final nor sealed");
        }
        this.type = type;
        this.table = MethodTable.of(type);
        this.members = new CopyOnWriteArrayList<>(members);
        this.configs = new AtomicReferenceArray<>(table.size());
        this.spin = spin;
        this.origin = origin;
    }

    /**
     * The call a result group holds the results of: its description ("Worker.step on a group of 4"), the members
     * called and their outcomes, in call order.
     */
    private record Origin(String call, Object[] called, Outcome[] slots) {}

    /** A new group proxy of {@code type} with these members. */
    public static <T> T newGroup(final Class<T> type, final Collection<?> members) {
        return PROXIES.newProxy(type, new GroupHandler(type, members));
    }

    /** The handler behind a group proxy, or null if {@code object} is not a group. */
    public static GroupHandler of(final Object object) {
        return PROXIES.handlerOf(object) instanceof GroupHandler g ? g : null;
    }

    @Override
    public Class<?> type() {
        return type;
    }

    /** A group crosses the wire as its members (a snapshot) and its scatter mode. */
    @Override
    public Recipe recipe() {
        return new GroupRecipe(members.toArray(), scatter);
    }

    public MethodTable table() {
        return table;
    }

    /** The members, live: changes show in later calls, not in calls under way. */
    public List<Object> members() {
        return members;
    }

    /** Members by name. */
    public Map<String, Object> named() {
        return named;
    }

    public boolean scatter() {
        return scatter;
    }

    public void setScatter(final boolean on) {
        scatter = on;
    }

    public MethodConfig config(final int method) {
        final MethodConfig c = configs.get(method);
        return c == null ? MethodConfig.BROADCAST : c;
    }

    public void configure(final int method, final MethodConfig config) {
        configs.set(method, config);
    }

    /**
     * Waits until {@code arrived} says enough members are there, no longer than {@code timeout} (null: as long as
     * it takes), and says whether they are. Members of a result group signal their arrival; other futures and nested
     * groups do not, so the wait looks again every few milliseconds.
     */
    public boolean awaitArrivals(final BooleanSupplier arrived, final Duration timeout) {
        return arrivals.await(arrived, timeout);
    }

    /**
     * Which members of this (result) group are still awaited, for the message of a wait that timed out: "the
     * results of Worker.step on a group of 4: 2 of 4 members arrived; awaited: member 1
     * (Worker#1@troupe://host:port/node), member 3 (...)".
     */
    public String awaited(final IntPredicate isArrived) {
        final List<String> awaited = new ArrayList<>();
        int count = 0;
        for (int i = 0; i < members.size(); i++) {
            if (!isArrived.test(i)) {
                if (count++ < MAX_NAMED) {
                    awaited.add("member " + i + " (" + memberText(called(members.get(i))) + ")");
                }
            }
        }
        return (origin == null ? "Group<" + type.getSimpleName() + ">" : "the results of " + origin.call) + ": "
                + (members.size() - count) + " of " + members.size() + " members arrived; awaited: "
                + String.join(", ", awaited) + (count > MAX_NAMED ? " and " + (count - MAX_NAMED) + " more" : "");
    }

    /**
     * The member of the called group behind {@code member} of this result group, when it is known (this is the
     * result group of a call made here and {@code member} one of its futures); else {@code member} itself.
     */
    public Object called(final Object member) {
        final Outcome f = CALLS.futureOf(member);
        if (origin != null && f != null) {
            for (int i = 0; i < origin.slots.length; i++) {
                if (origin.slots[i] == f) {
                    return origin.called[i];
                }
            }
        }
        return member;
    }

    /**
     * A member as text, never waiting or rethrowing: an active object's name ("Worker#2@troupe://host:port/node"),
     * a group's members, a plain object's own text; a future that has no value is named by its call.
     */
    public static String memberText(final Object member) {
        final Outcome f = CALLS.futureOf(member);
        if (f != null && (!f.isDone() || f.failure() != null)) {
            return "the result of " + f.call();
        }
        return String.valueOf(member);
    }

    @Override
    public Object handle(final int method, final Object[] args) throws Throwable {
        return switch (method) {
            case MethodTable.EQUALS -> args[0] != null && of(args[0]) == this;
            case MethodTable.HASH_CODE -> System.identityHashCode(this);
            case MethodTable.TO_STRING -> "Group<" + type.getSimpleName() + ">" + members;
            default -> invoke(table.method(method), args, config(method));
        };
    }

    /**
     * A call of {@code m} on every member, as {@code config} says. The failures of earlier one-way calls that came
     * after those returned are thrown first: by a one-way call once it is made, by any other call instead of it.
     */
    public Object invoke(final Method m, final Object[] args, final MethodConfig config) {
        final Object[] snapshot = members.toArray();
        final Class<?> r = m.getReturnType();
        if (r == void.class) { // never combined: there is nothing to combine
            callOneWay(m, snapshot, MemberArguments.of(m, args, snapshot.length, config, scatter), config);
            return null;
        }
        oneWayFailures.throwKept(type, m, null);
        final Object[][] perMember = MemberArguments.of(m, args, snapshot.length, config, scatter);
        if (config.combiner() != null) {
            checkNotAMember(m, snapshot);
            if (config.tree()) {
                return TreeReduction.run(m, snapshot, perMember, config.combiner());
            }
            return fold(m, snapshot, callAll(m, snapshot, perMember, config), config);
        }
        if (CALLS.resultMode(m) != CallMode.FUTURE) {
            throw new TroupeException(describe(m) + " returns a " + r.getName() + ", which cannot be a group of"
                    + " results (it cannot be proxied); combine the replies into one value: Groups.view(group).method(\""
                    + m.getName() + "\", ...).combine(...)");
        }
        final Outcome[] slots = callAll(m, snapshot, perMember, config);
        throwRefusedArguments(m, snapshot, slots);
        final List<Object> results = new ArrayList<>(slots.length);
        for (final Outcome slot : slots) {
            final Object nested = slot.isDone() && slot.failure() == null ? slot.await(Spin.NONE) : null;
            results.add(of(nested) != null ? nested : CALLS.futureProxy(slot, r, spin));
        }
        final GroupHandler resultGroup = new GroupHandler(r, results, spin, new Origin(describe(m), snapshot, slots));
        for (final Outcome slot : slots) {
            slot.whenPending((v, t) -> resultGroup.arrivals.signal());
        }
        return PROXIES.newProxy(r, resultGroup);
    }

    /**
     * Arguments that could not be sent to a member (a lambda, a thread, a class not allowed) are the caller's error:
     * it is thrown at once, as a call on one active object throws it, not left in a result group's slots. The other
     * members were called all the same.
     */
    private static void throwRefusedArguments(final Method m, final Object[] snapshot, final Outcome[] slots) {
        final List<MemberFailure> refused = new ArrayList<>();
        for (int i = 0; i < slots.length; i++) {
            if (slots[i].isDone() && slots[i].failure() instanceof SerializationException e) {
                refused.add(new MemberFailure(i, snapshot[i], e));
            }
        }
        if (!refused.isEmpty()) {
            throw new GroupCallException(
                    m.getDeclaringClass().getSimpleName() + "." + m.getName() + " on a group of " + slots.length
                            + " (its arguments could not be sent)",
                    refused);
        }
    }

    /**
     * A member waiting for the combined replies of its own group would wait for itself: its request stays queued
     * behind the one it is serving.
     */
    private void checkNotAMember(final Method m, final Object[] snapshot) {
        final Object self = CALLS.currentActiveObject();
        if (self == null) {
            return;
        }
        for (final Object member : snapshot) {
            if (CALLS.isActiveObject(member) && member.equals(self)) {
                throw new TroupeException(describe(m) + " would wait for its own reply: " + self + " is a member"
                        + " and is serving this call; call the others (Groups.view(group).difference(...)) or use"
                        + " a result group without waiting on it");
            }
        }
    }

    private String describe(final Method m) {
        return type.getSimpleName() + "." + m.getName() + " on a group of " + members.size();
    }

    static String role(final int index, final int size) {
        return "member " + index + " of " + size;
    }

    // --- One-way calls ---

    /**
     * Calls a {@code void} method on every member. Active members acknowledge each call once they have run it, so
     * that a failure reaches this group; the call itself does not wait for that. Other members are called before
     * this returns (a result group's futures as they arrive). Then every failure known so far is thrown, this
     * call's and earlier ones'; later ones are kept for the next call.
     */
    private void callOneWay(final Method m, final Object[] snapshot, final Object[][] args, final MethodConfig config) {
        final OneWayFailureLog.Call call = new OneWayFailureLog.Call(describe(m));
        final Outcome[] slots = callAll(m, snapshot, args, config);
        for (int i = 0; i < slots.length; i++) {
            final int index = i;
            final Object member = snapshot[i];
            if (CALLS.isActiveObject(member)) {
                slots[i].whenDone((v, t) -> oneWayFailures.add(call, index, member, t));
            } else {
                try {
                    slots[i].await(spin);
                } catch (RuntimeException | Error e) {
                    oneWayFailures.add(call, index, member, slots[i].failure());
                }
            }
        }
        oneWayFailures.throwKept(type, m, call);
    }

    // --- Calls ---

    /**
     * Calls every member; returns one outcome per member, in member order. The outcome of a {@code void} method on
     * an active member comes once the member has run it; on other members, once it is called.
     */
    Outcome[] callAll(final Method m, final Object[] snapshot, final Object[][] args, final MethodConfig config) {
        final int n = snapshot.length;
        final Outcome[] slots = new Outcome[n];
        final int[] active = new int[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (CALLS.isActiveObject(snapshot[i])) {
                active[count++] = i;
            } else {
                slots[i] = CALLS.pending(slotName(m, snapshot[i], role(i, n)));
                callOne(snapshot[i], m, args[i], config, slots[i], role(i, n));
            }
        }
        if (count > 0) {
            final Object[] targets = new Object[count];
            final Object[][] targetArgs = new Object[count][];
            for (int k = 0; k < count; k++) {
                targets[k] = snapshot[active[k]];
                targetArgs[k] = args[active[k]];
            }
            final Outcome[] sent = CALLS.sendAcknowledged(targets, m, targetArgs, k -> role(active[k], n));
            for (int k = 0; k < count; k++) {
                slots[active[k]] = sent[k];
            }
        }
        return slots;
    }

    /** What the call on a member that is not an active object is: "Value.plus on 7 (member 1 of 2)". */
    private static Supplier<String> slotName(final Method m, final Object member, final String role) {
        return () -> {
            final String on = memberText(member); // a future of a call on a group may name the role already
            return m.getDeclaringClass().getSimpleName() + "." + m.getName() + " on " + on
                    + (on.endsWith("(" + role + ")") ? "" : " (" + role + ")");
        };
    }

    /** Calls one member that is not (yet) an active object; {@code slot} gets the outcome. */
    private void callOne(
            final Object member,
            final Method m,
            final Object[] args,
            final MethodConfig config,
            final Outcome slot,
            final String role) {
        if (member == null) {
            slot.fail(new NullPointerException("The member is null"));
            return;
        }
        final Outcome future = CALLS.futureOf(member);
        if (future != null) {
            // Wait-by-necessity per member: the call leaves as soon as this member's value is there.
            future.whenDone((value, failure) -> {
                if (failure != null) {
                    slot.fail(failure);
                } else {
                    Thread.ofVirtual().start(() -> callOne(value, m, args, config, slot, role));
                }
            });
            return;
        }
        if (CALLS.isActiveObject(member)) {
            CALLS.sendAcknowledged(new Object[] {member}, m, new Object[][] {args}, k -> role)[0].whenDone(
                    (v, t) -> settle(slot, v, t));
            return;
        }
        final GroupHandler nested = of(member);
        // A nested group gets this member's arguments as they are, and folds its replies as the outer group does.
        final MethodConfig inner = new MethodConfig(null, config.combiner(), false);
        if (nested != null && config.combiner() == null && m.getReturnType() != void.class) {
            try {
                slot.complete(nested.invoke(m, args, inner)); // a result group: returns at once
            } catch (RuntimeException e) {
                slot.fail(e);
            }
            return;
        }
        Thread.ofVirtual().start(() -> {
            try {
                slot.complete(nested != null ? nested.invoke(m, args, inner) : m.invoke(member, args));
            } catch (InvocationTargetException e) {
                slot.fail(e.getCause());
            } catch (Throwable t) {
                slot.fail(t);
            }
        });
    }

    private static void settle(final Outcome slot, final Object value, final Throwable failure) {
        if (failure != null) {
            slot.fail(failure);
        } else {
            slot.complete(value);
        }
    }

    /** Waits for every outcome, and returns the failed members', in member order. */
    private List<MemberFailure> failures(final Object[] snapshot, final Outcome[] slots) {
        final List<MemberFailure> failures = new ArrayList<>();
        for (int i = 0; i < slots.length; i++) {
            try {
                slots[i].await(spin);
            } catch (RuntimeException | Error e) {
                failures.add(new MemberFailure(i, snapshot[i], slots[i].failure()));
            }
        }
        return failures;
    }

    /** Folds the members' results in member order at the caller. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object fold(final Method m, final Object[] snapshot, final Outcome[] slots, final MethodConfig config) {
        if (slots.length == 0) {
            throw new IllegalStateException("Combining the replies of " + describe(m) + ": the group is empty");
        }
        final List<MemberFailure> failures = failures(snapshot, slots);
        if (!failures.isEmpty()) {
            throw new GroupCallException(describe(m), failures);
        }
        final Combiner c = config.combiner();
        Object acc = slots[0].await(spin);
        for (int i = 1; i < slots.length; i++) {
            acc = c.combine(acc, slots[i].await(spin));
        }
        return acc;
    }
}
