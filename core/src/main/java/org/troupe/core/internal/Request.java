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

    public Request(final int method, final Method reflected, final Object[] args, final ReplySink reply) {
        this.method = method;
        this.reflected = reflected;
        this.args = args;
        this.reply = reply;
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
