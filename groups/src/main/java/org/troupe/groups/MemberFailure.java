package org.troupe.groups;

import org.troupe.core.spi.Outcome;
import org.troupe.groups.internal.GroupHandler;

/**
 * What went wrong for one member of a group call.
 *
 * @param index the member's index in the group when it was called
 * @param member the member called: an active object, a group or a plain object, or a future when the call went to a
 *     result group's member; for a failure found in a result group, the member of the called group behind it (the
 *     failed future itself when that is not known: a result group made elsewhere or by {@link Groups#of})
 * @param cause what it threw, or why it could not be reached
 */
public record MemberFailure(int index, Object member, Throwable cause) {
    /** "member 2 (Worker#2@troupe://host:port/node): java.lang.IllegalStateException: boom"; never waits. */
    @Override
    public String toString() {
        return "member " + index + " (" + GroupHandler.memberText(member) + "): " + Outcome.describe(cause);
    }
}
