package org.troupe.core.internal;

import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.internal.RuntimeSettings.SynchronousCalls;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.service.CallMode;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.MethodTable;
import org.troupe.serialization.NotSendableException;

/** Behind the proxy of an active object in this JVM: turns each call into a request for its body. */
public final class StubHandler implements CallHandler {
    private final Body body;
    private final String nodeName;
    private final Copier copier;
    private final CallResults results;
    private final MethodTable table;
    private final CallMode[] modes;

    public StubHandler(
            final Body body,
            final String nodeName,
            final Copier copier,
            final long spinNanos,
            final SynchronousCalls synchronousCalls) {
        this.body = body;
        this.nodeName = nodeName;
        this.copier = copier;
        this.table = body.table();
        this.modes = CallModes.of(body.target().getClass());
        this.results = new CallResults(synchronousCalls, spinNanos, modes.length);
    }

    public Body body() {
        return body;
    }

    /** The name of the node the object lives on. */
    public String nodeName() {
        return nodeName;
    }

    @Override
    public Object handle(final int method, final Object[] args) throws Throwable {
        switch (method) {
            case MethodTable.EQUALS:
                return args[0] != null && ProxyGenerator.handlerOf(args[0]) instanceof StubHandler s && s.body == body;
            case MethodTable.HASH_CODE:
                return Long.hashCode(body.id());
            case MethodTable.TO_STRING:
                return body.name();
            default:
                break;
        }
        final Method m = table.method(method);
        final CallMode mode = modes[method];
        final FutureState f;
        switch (mode) {
            case ONE_WAY -> {
                if (!body.enqueue(new Request(method, m, copy(m, args), null))) {
                    OneWayFailures.report(describe(m), new TerminatedException(body.name() + " is terminated"));
                }
                return null;
            }
            case IMMEDIATE -> {
                f = new FutureState(() -> describe(m));
                body.serveNow(new Request(method, m, copy(m, args), new LocalReply(f, copier)));
            }
            default -> {
                if (mode == CallMode.SYNCHRONOUS) {
                    results.checkSynchronous(method, m, () -> describe(m));
                }
                f = new FutureState(() -> describe(m));
                body.enqueue(new Request(method, m, copy(m, args), new LocalReply(f, copier)));
            }
        }
        return results.of(mode, f, m.getReturnType());
    }

    /**
     * Sends a call whatever its mode and returns its future at once: resolved to null when a one-way call is
     * queued (unless {@code acknowledged}: then once it has run), to the result otherwise (the caller chooses
     * whether and when to wait).
     */
    public FutureState send(
            final int method, final Object[] args, final Supplier<String> what, final boolean acknowledged) {
        final Method m = table.method(method);
        final CallMode mode = modes[method];
        final Object[] copied = copy(m, args);
        if (mode == CallMode.ONE_WAY && !acknowledged) {
            return body.enqueue(new Request(method, m, copied, null))
                    ? FutureState.SENT
                    : FutureState.failed(what, new TerminatedException(body.name() + " is terminated"));
        }
        final FutureState f = new FutureState(what);
        final Request r = new Request(method, m, copied, new LocalReply(f, copier));
        if (mode == CallMode.IMMEDIATE) {
            Thread.ofVirtual().start(() -> body.serveNow(r)); // the sender does not wait, even for these
        } else {
            body.enqueue(r);
        }
        return f;
    }

    /** The arguments as the object gets them: copies, unless they need none. */
    private Object[] copy(final Method m, final Object[] args) {
        try {
            return copier.copyArguments(args);
        } catch (NotSendableException e) {
            throw RefusedArguments.of(e, m, args);
        }
    }

    private String describe(final Method m) {
        return CallResults.describe(m, body.name());
    }
}
