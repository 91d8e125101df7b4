package org.troupe.core.internal;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.CallMode;
import org.troupe.core.CoreConfig.SynchronousCalls;
import org.troupe.core.TroupeException;
import org.troupe.core.proxy.CallHandler;
import org.troupe.core.proxy.MethodTable;
import org.troupe.core.proxy.ProxyGenerator;

/** Behind the proxy of an active object in this JVM: turns each call into a request for its body. */
public final class StubHandler implements CallHandler {
    private static final Logger LOG = LoggerFactory.getLogger(StubHandler.class);

    private final Body body;
    private final String name;
    private final Copier copier;
    private final Spin spin;
    private final SynchronousCalls synchronousCalls;
    private final MethodTable table;
    private final CallMode[] modes;
    private final AtomicReferenceArray<Boolean> warned;

    public StubHandler(final Body body, final String name, final Copier copier, final long spinNanos,
                       final SynchronousCalls synchronousCalls) {
        this.body = body;
        this.name = name;
        this.copier = copier;
        this.spin = new Spin(spinNanos);
        this.synchronousCalls = synchronousCalls;
        this.table = body.table();
        this.modes = CallModes.of(body.target().getClass());
        this.warned = new AtomicReferenceArray<>(modes.length);
    }

    public Body body() {
        return body;
    }

    @Override
    public Object handle(final int method, final Object[] args) throws Throwable {
        switch (method) {
            case MethodTable.EQUALS:
                return args[0] != null && ProxyGenerator.handlerOf(args[0]) instanceof StubHandler s && s.body == body;
            case MethodTable.HASH_CODE:
                return Long.hashCode(body.id());
            case MethodTable.TO_STRING:
                return name;
            default:
                break;
        }
        final Method m = table.method(method);
        return switch (modes[method]) {
            case ONE_WAY -> {
                body.enqueue(new Request(method, m, copier.copyArguments(args), null));
                yield null;
            }
            case FUTURE -> {
                final FutureState f = call(method, m, args);
                yield ProxyGenerator.newProxy(m.getReturnType(), new FutureHandler(f, m.getReturnType(), spin));
            }
            case COMPLETION_STAGE -> {
                final CompletableFuture<Object> cf = new CompletableFuture<>();
                call(method, m, args).whenDone((v, t) -> {
                    if (t != null) {
                        cf.completeExceptionally(t);
                    } else {
                        cf.complete(v);
                    }
                });
                yield cf;
            }
            case SYNCHRONOUS -> {
                checkSynchronous(method, m);
                yield call(method, m, args).await(spin);
            }
            case IMMEDIATE -> {
                final FutureState f = new FutureState(() -> describe(m));
                body.serveNow(new Request(method, m, copier.copyArguments(args), new LocalReply(f, copier)));
                yield f.await(spin);
            }
        };
    }

    private FutureState call(final int method, final Method m, final Object[] args) {
        final FutureState f = new FutureState(() -> describe(m));
        body.enqueue(new Request(method, m, copier.copyArguments(args), new LocalReply(f, copier)));
        return f;
    }

    private void checkSynchronous(final int method, final Method m) {
        if (synchronousCalls == SynchronousCalls.REFUSE) {
            throw new TroupeException(describe(m) + " would be synchronous (its result, a "
                + m.getReturnType().getName() + ", cannot be a future) and troupe.core.synchronousCalls=refuse;"
                + " return void, an interface, a non-final class or a CompletableFuture instead");
        }
        if (synchronousCalls == SynchronousCalls.WARN && warned.compareAndSet(method, null, Boolean.TRUE)) {
            LOG.warn("{} is synchronous: its result, a {}, cannot be a future", describe(m),
                m.getReturnType().getName());
        }
    }

    private String describe(final Method m) {
        return m.getDeclaringClass().getSimpleName() + "." + m.getName() + " on " + name;
    }
}
