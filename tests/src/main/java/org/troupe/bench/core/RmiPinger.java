package org.troupe.bench.core;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** {@link Pinger}'s shape as a Java RMI interface. */
public interface RmiPinger extends Remote {
    Box ping(Box box) throws RemoteException;

    void tick(long n) throws RemoteException;

    Box ticks() throws RemoteException;

    Box border(Border head) throws RemoteException;
}
