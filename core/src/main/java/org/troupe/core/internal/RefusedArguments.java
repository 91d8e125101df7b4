package org.troupe.core.internal;

import java.lang.reflect.Method;
import org.troupe.serialization.NotSendableException;

/** A call's arguments that cannot be sent, said with the method and, when it can tell, which argument. */
public final class RefusedArguments {
    private RefusedArguments() {}

    /**
     * {@code refused}, saying where it was: "argument 2 of Worker.take", or "Task.callback in argument 1 of
     * Worker.run". The method is named without its object, so that members of a group refused alike are said once.
     */
    public static NotSendableException of(final NotSendableException refused, final Method m, final Object[] args) {
        final int index = argumentIndex(refused, args);
        final String where = (index < 0 ? "an argument" : "argument " + (index + 1)) + " of "
                + m.getDeclaringClass().getSimpleName() + "." + m.getName();
        return refused.at(refused.path() == null ? where : refused.path() + " in " + where);
    }

    /**
     * The index of the argument that holds the refused object: the one of its class when it was an argument itself,
     * the one of the class its path starts at otherwise; -1 if none, or several, could be it.
     */
    private static int argumentIndex(final NotSendableException refused, final Object[] args) {
        final String path = refused.path();
        final String root = path == null ? null : path.split("[.\\[]", 2)[0];
        int found = -1;
        for (int i = 0; args != null && i < args.length; i++) {
            final Object a = args[i];
            if (a != null
                    && (root == null
                            ? a.getClass().getName().equals(refused.className())
                            : a.getClass().getSimpleName().equals(root))) {
                if (found >= 0) {
                    return -1;
                }
                found = i;
            }
        }
        return found;
    }
}
