package org.troupe.groups;

import java.lang.reflect.Method;
import org.troupe.groups.internal.GroupHandler;
import org.troupe.groups.internal.MethodConfig;

/**
 * How calls of one method on one group are made, chosen at run time (group method invocation): broadcast by
 * default, or personalized arguments; one result per member by default, or one combined reply. Obtained from
 * {@link Group#method(String, Class[])}; the setting holds for later calls of that method on that group.
 */
public final class GroupMethod {
    /** Where combined replies are folded. */
    public enum Reduction {
        /** Every member replies to the caller, which folds the replies. */
        AT_CALLER,
        /**
         * Along a binomial tree through the members' JVMs: each inner step folds its subtree's replies and sends one
         * value up, so the caller gets one reply, not one per member.
         */
        TREE
    }

    private final GroupHandler handler;
    private final int index;
    private final Method method;

    GroupMethod(final GroupHandler handler, final int index, final Method method) {
        this.handler = handler;
        this.index = index;
        this.method = method;
    }

    /** Each member gets the arguments {@code personalizer} makes for it. */
    public GroupMethod personalize(final Personalizer personalizer) {
        handler.configure(index, handler.config(index).withPersonalizer(personalizer));
        return this;
    }

    /**
     * The call returns one value, the members' results folded by {@code combiner} in member order, instead of a
     * result group; a method returning a primitive or a final class can then be called on a group too. A member's
     * failure fails the call: at the caller with a {@link GroupCallException} naming every member that failed; in
     * a tree with the first failure met on the way up. Nested groups fold their members' replies the same way.
     */
    public <R> GroupMethod combine(final Combiner<R> combiner, final Reduction reduction) {
        if (method.getReturnType() == void.class) {
            throw new IllegalArgumentException(method.getName() + " returns nothing: there are no replies to combine");
        }
        if (reduction == Reduction.TREE && combiner.getClass().isHidden()) {
            throw new IllegalArgumentException("A combiner for TREE replies travels to the members' JVMs, and "
                    + combiner.getClass().getName()
                    + " (a lambda?) cannot: make it a named class of an allowed package");
        }
        handler.configure(index, handler.config(index).withCombiner(combiner, reduction == Reduction.TREE));
        return this;
    }

    /** Back to the default: same arguments for every member, one result per member. */
    public GroupMethod reset() {
        handler.configure(index, MethodConfig.BROADCAST);
        return this;
    }

    public Method method() {
        return method;
    }
}
