package org.troupe.bench.serialization;

import java.io.Serializable;

/**
 * A node of a singly linked list of border values, as a solver chains the faces it exchanges with a neighbour.
 * Deliberately plain: exactly these two fields, non-final, the implicit constructor.
 */
public class Node implements Serializable {
    double[] v;
    Node next;
}
