package org.troupe.bench.core;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.rmi.Remote;
import java.rmi.server.UnicastRemoteObject;
import org.troupe.core.internal.HopTrace;
import org.troupe.core.spi.EndpointAddress;

/**
 * An active object the benchmark creates on the remote node to start the baselines there: the RMI server and the
 * spinning socket echo, and the endpoint echo. Its methods return an array, a primitive and a record, so they are
 * synchronous calls.
 */
public class BenchHost {
    /** Held so the exported object stays reachable for the whole run. */
    private RmiPingerServer rmiServer;

    /** Exports an RMI server object on loopback and returns its stub, Java-serialized. */
    public byte[] exportRmi() throws IOException {
        rmiServer = new RmiPingerServer();
        final Remote stub = UnicastRemoteObject.exportObject(rmiServer, 0);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(stub);
        }
        return bytes.toByteArray();
    }

    /**
     * Opens an endpoint in this JVM that answers each frame (of at most {@code maxPayload} bytes) with one byte, and
     * a thread that spins reading for it, parking after {@code idleMillis} without a frame; returns its address.
     */
    public EndpointAddress startEndpointEcho(final String name, final int maxPayload, final long idleMillis) {
        return EndpointEcho.open(name, maxPayload, idleMillis);
    }

    /** Starts stamping the hops of the calls this JVM serves. */
    public void startHopTrace() {
        HopTrace.start();
    }

    /** The stamps this JVM took of the calls {@code callIds} (null where it has none); stops stamping. */
    public long[][] hopStamps(final long[] callIds) {
        HopTrace.stop();
        final long[][] stamps = new long[callIds.length][];
        for (int i = 0; i < callIds.length; i++) {
            stamps[i] = HopTrace.stamps(callIds[i]);
        }
        return stamps;
    }

    /** Starts a socket echo on loopback for one client and returns its port. */
    public int startSpinEcho() throws IOException {
        return SpinEcho.serve();
    }
}
