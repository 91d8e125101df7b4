package org.troupe.core.remote;

import java.nio.ByteBuffer;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.internal.Body;
import org.troupe.core.internal.CallModes;
import org.troupe.core.internal.CallResults;
import org.troupe.core.internal.LocalRuntime;
import org.troupe.core.internal.ReplySink;
import org.troupe.core.internal.Request;
import org.troupe.core.remote.Remoting.NodeInfo;
import org.troupe.core.service.CallMode;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.MethodTable;

/**
 * Serves what peers ask of this runtime, once their {@link FrameReader} has decoded it: a call goes to its active
 * object's queue (or its own thread, for an {@code @Immediate} method), a creation or lookup is answered, a node
 * offer goes to the {@link NodeRegistry}, an endpoint frame to the {@link EndpointTable}. Runs on whichever thread
 * reads the peer's link, one frame at a time: anything slow goes to a virtual thread
 * ({@link ServingLimits#runOnItsOwnThread}).
 */
final class RequestDispatcher {
    private final LocalRuntime runtime;
    private final EndpointTable endpoints;
    private final NodeRegistry nodes;

    RequestDispatcher(final LocalRuntime runtime, final EndpointTable endpoints, final NodeRegistry nodes) {
        this.runtime = runtime;
        this.endpoints = endpoints;
        this.nodes = nodes;
    }

    /** A call from {@code from}, of {@code bytes} on the wire, for the object {@code objectId} of this runtime. */
    void call(
            final Peer from,
            final long callId,
            final long objectId,
            final int method,
            final Object[] args,
            final long bytes) {
        final Body body = runtime.body(objectId);
        if (body == null) {
            final TerminatedException gone = new TerminatedException(
                    "Active object " + objectId + " of runtime " + runtime.id() + " is terminated");
            gone.setStackTrace(new StackTraceElement[0]); // this runtime's dispatch: nothing for the caller
            if (callId != 0) {
                from.reply(callId, null, gone);
            } else { // the caller of a one-way call hears of it too
                from.oneWaySink()
                        .failOneWay(
                                "a one-way call on active object " + objectId + " of runtime " + runtime.id(), gone);
            }
            return;
        }
        final MethodTable table = body.table();
        if (method < 0 || method >= table.size()) {
            if (callId != 0) {
                from.reply(callId, null, MethodTable.noSuchMethod(body.target().getClass(), method));
            }
            return;
        }
        final ReplySink reply = callId == 0 ? from.oneWaySink() : from.replySink(callId);
        final Request request = new Request(method, table.method(method), args, reply);
        final ServingLimits limits = from.limits();
        // The method's own annotation decides, never the caller's flag: only an @Immediate method may run beside
        // the body's thread.
        if (CallModes.of(table.type())[method] == CallMode.IMMEDIATE) {
            limits.runOnItsOwnThread(() -> body.serveNow(request));
        } else if (limits.queuing(bytes)
                && !body.enqueue(request.whenLeaving(() -> limits.unqueued(bytes)))
                && callId == 0) { // terminated since it was looked up: a one-way call's caller hears of it too
            reply.failOneWay(
                    CallResults.describe(table.method(method), body.name()),
                    new TerminatedException(body.name() + " is terminated"));
        }
    }

    /** A request of another kind than a call ({@link Frames#CREATE}, a lookup, a node offer) from {@code from}. */
    void request(final Peer from, final byte kind, final long callId, final Object body) {
        switch (kind) {
            case Frames.CREATE ->
                from.limits().runOnItsOwnThread(() -> {
                    try {
                        final Object[] c = (Object[]) body;
                        from.reply(callId, runtime.newActive((String) c[0], (Object[]) c[2], (String) c[1]), null);
                    } catch (RuntimeException e) {
                        from.reply(callId, null, e);
                    }
                });
            case Frames.LOOKUP -> {
                final Object found = runtime.registered((String) body);
                from.reply(
                        callId,
                        found,
                        found == null
                                ? new TroupeException(
                                        "No active object is registered as " + body + " in runtime " + runtime.id())
                                : null);
            }
            case Frames.LOOKUP_ENDPOINT -> {
                final EndpointAddress found = endpoints.find((String) body);
                from.reply(
                        callId,
                        found,
                        found == null
                                ? new TroupeException(
                                        "No endpoint called " + body + " is open in runtime " + runtime.id())
                                : null);
            }
            case Frames.REGISTER_NODE ->
                nodes.offered(
                        new NodeInfo((String) body, from.link.peerRuntimeId(), from.link.peerAddress()),
                        from.describe());
            default -> throw new IllegalStateException("not a request: " + kind);
        }
    }

    /** Ends the active object {@code objectId} of this runtime, if it still lives. */
    void terminate(final long objectId) {
        final Body body = runtime.body(objectId);
        if (body != null) {
            body.terminate();
        }
    }

    /** A frame from the endpoint {@code from} for our endpoint {@code to}; the buffers are valid during the call. */
    void endpointFrame(final EndpointAddress from, final long to, final ByteBuffer header, final ByteBuffer payload) {
        endpoints.deliver(from, to, header, payload);
    }
}
