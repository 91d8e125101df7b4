package org.troupe.groups;

import java.util.List;
import org.troupe.core.exceptions.TroupeException;

/**
 * A call on a group that failed for some members: every other member was still called. Thrown by a combined reply
 * and by a one-way ({@code void}) call: by the call itself for the failures known when it has called every member
 * (a member that cannot be reached, a method that failed already), and by the group's next call for those that
 * come later. For calls whose results are a result group the failures stay in their slots instead (see
 * {@link Group#failures()}). Members that failed alike are said once: "failed for members 0-3: ...".
 */
public class GroupCallException extends TroupeException {
    private final transient List<MemberFailure> failures;

    public GroupCallException(final String call, final List<MemberFailure> failures) {
        super(
                call + " failed for "
                        + (failures.isEmpty() ? "no member" : FailureSummary.of(FailureSummary.entries(failures))),
                failures.isEmpty() ? null : failures.getFirst().cause());
        this.failures = List.copyOf(failures);
    }

    /**
     * A {@code GroupCallException} from another JVM, rebuilt from its message (its cause comes with it); it has no
     * {@link #failures()}.
     */
    public GroupCallException(final String message) {
        super(message);
        this.failures = List.of();
    }

    /** The members that failed, in member order; empty when the exception came from another JVM. */
    public List<MemberFailure> failures() {
        return failures == null ? List.of() : failures;
    }
}
