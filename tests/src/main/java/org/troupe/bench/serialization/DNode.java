package org.troupe.bench.serialization;

import java.io.Serializable;

/** A node of a cyclic doubly linked list: every node is reachable twice, so references must be tracked. */
public class DNode implements Serializable {
    double value;
    DNode prev;
    DNode next;
}
