package org.troupe.groups;

/**
 * What went wrong for one member of a group call.
 *
 * @param index the member's index in the group when it was called
 * @param member the member (a proxy, a future, or a group)
 * @param cause what it threw, or why it could not be reached
 */
public record MemberFailure(int index, Object member, Throwable cause) {
    @Override
    public String toString() {
        return "member " + index + " (" + member + "): " + cause;
    }
}
