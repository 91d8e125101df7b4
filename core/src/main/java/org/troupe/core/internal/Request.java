package org.troupe.core.internal;

import java.lang.reflect.Method;
import org.troupe.core.service.RequestInfo;

/** A call waiting in an active object's queue: the method, its (already copied) arguments and where to reply. */
public final class Request implements RequestInfo {
    final int method;
    final Method reflected;
    final Object[] args;
    /** Null for a one-way call. */
    final ReplySink reply;
    /** Run once when the request leaves its queue, served or refused; null if nobody counts it. */
    private Runnable onLeaving;
    /** When it entered its queue ({@code ObjectMeters.queued}), 0 if nothing counts it. */
    long queuedAt;

    public Request(final int method, final Method reflected, final Object[] args, final ReplySink reply) {
        this.method = method;
        this.reflected = reflected;
        this.args = args;
        this.reply = reply;
    }

    /** Runs {@code action} once when the request leaves its queue (served or refused): to count what is queued. */
    public Request whenLeaving(final Runnable action) {
        this.onLeaving = action;
        return this;
    }

    void left() {
        final Runnable action = onLeaving;
        if (action != null) {
            onLeaving = null;
            action.run();
        }
    }

    @Override
    public String methodName() {
        return reflected.getName();
    }

    @Override
    public Class<?>[] parameterTypes() {
        return reflected.getParameterTypes();
    }

    @Override
    public String toString() {
        return reflected.getDeclaringClass().getSimpleName() + "." + reflected.getName();
    }
}
