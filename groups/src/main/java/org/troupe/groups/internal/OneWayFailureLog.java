package org.troupe.groups.internal;

import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.troupe.groups.GroupCallException;
import org.troupe.groups.MemberFailure;

/**
 * The failures of a group's one-way ({@code void}) calls that came after those calls returned, kept until the
 * group's next call throws them, all together in one {@link GroupCallException}.
 *
 * <p>It keeps at most {@link #MAX_KEPT} failures between two drains, in the order they came, grouped by the call
 * they belong to; those beyond are counted, and the count is said in the message ("..., 368 more failures not
 * kept"): a group called one way in a loop, and never again, holds no more than that.
 *
 * <p>Failures are {@linkplain #add added} by whichever thread learns of them: for an active member, the thread that
 * settles its acknowledgement (one reading a connection, the call deadlines' timer, a local active object's own
 * thread), or the caller's when the member had failed before the call returned; for any other member, the caller's
 * thread while it makes the call. The log is {@linkplain #throwKept drained} by the thread that makes the group's
 * next call, before that call for a call that returns something, after it for a one-way call. Every method may be
 * called from any thread.
 */
final class OneWayFailureLog {
    /** Failures kept between two drains; beyond, they are counted. */
    static final int MAX_KEPT = 32;
    /** Stands for the calls of failures not kept when there were several. */
    private static final Call SEVERAL = new Call("");
    /** The calls that have failures not yet thrown, in the order of their first failure; guarded by itself. */
    private final ArrayDeque<Call> unreported = new ArrayDeque<>();
    /** Failures kept in {@link #unreported} (guarded by it), and those not kept for want of room. */
    private int kept;

    private long notKept;
    /** The call the failures not kept came from, {@link #SEVERAL} if more than one, or null if none. */
    private Call notKeptFrom;

    /** A one-way call on the group and those of its failures not yet thrown (guarded by the log's lock). */
    static final class Call {
        private final String description;
        private final List<MemberFailure> failures = new ArrayList<>();

        /** {@code description} names the call in the message: "Worker.tick on a group of 4". */
        Call(final String description) {
            this.description = description;
        }
    }

    /** Keeps {@code failure} of {@code member} (at {@code index}) in {@code call}, if there is room; null is none. */
    void add(final Call call, final int index, final Object member, final Throwable failure) {
        if (failure == null) {
            return;
        }
        synchronized (unreported) {
            if (kept == MAX_KEPT) { // a group called one way in a loop, and never again
                notKept++;
                notKeptFrom = notKeptFrom == null || notKeptFrom == call ? call : SEVERAL;
                return;
            }
            kept++;
            if (call.failures.isEmpty()) {
                unreported.add(call);
            }
            call.failures.add(new MemberFailure(index, member, failure));
        }
    }

    /**
     * Throws, together, the failures kept, if any, and empties the log. {@code m} is the call being made on the
     * group of {@code type}: {@code current} if it is a one-way call, made already; else null, and it is not made if
     * this throws.
     */
    void throwKept(final Class<?> type, final Method m, final Call current) {
        final List<Call> calls = new ArrayList<>();
        final List<MemberFailure> failures = new ArrayList<>();
        final long lost;
        final Call lostFrom;
        synchronized (unreported) {
            for (Call c = unreported.poll(); c != null; c = unreported.poll()) {
                calls.add(c);
                failures.addAll(c.failures);
                c.failures.clear();
            }
            lost = notKept;
            lostFrom = notKeptFrom;
            notKept = 0;
            notKeptFrom = null;
            kept = 0;
        }
        if (calls.isEmpty()) {
            return;
        }
        failures.sort(Comparator.comparingInt(MemberFailure::index)); // stable: in call order for each member
        final String which = calls.getFirst().description
                + (calls.size() == 1
                        ? ""
                        : " and " + (calls.size() - 1) + " later one-way call" + (calls.size() == 2 ? "" : "s"))
                + (lost == 0 ? "" : ", " + lost + " more failures not kept");
        throw new GroupCallException(
                calls.size() == 1 && calls.getFirst() == current && (lost == 0 || lostFrom == current)
                        ? which
                        : which + " (" + (calls.size() == 1 ? "an earlier one-way call" : "earlier one-way calls")
                                + "; this "
                                + type.getSimpleName() + "." + m.getName()
                                + (current == null ? " was not made)" : " was made)"),
                failures);
    }
}
