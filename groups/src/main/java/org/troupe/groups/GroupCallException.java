package org.troupe.groups;

import java.util.List;
import org.troupe.core.TroupeException;

/**
 * A call on a group that failed for some members: every other member was still called. For calls whose results
 * are a result group the failures stay in their slots instead (see {@link Group#failures()}).
 */
public class GroupCallException extends TroupeException {
    private final transient List<MemberFailure> failures;

    public GroupCallException(final String call, final List<MemberFailure> failures) {
        super(call + " failed for " + failures.size() + " member" + (failures.size() == 1 ? "" : "s") + ": "
            + (failures.size() > 5 ? failures.subList(0, 5) + " ..." : failures), failures.isEmpty() ? null
            : failures.getFirst().cause());
        this.failures = List.copyOf(failures);
    }

    /** The members that failed, in member order; empty when the exception came from another JVM. */
    public List<MemberFailure> failures() {
        return failures == null ? List.of() : failures;
    }
}
