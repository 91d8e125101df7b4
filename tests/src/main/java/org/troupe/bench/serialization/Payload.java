package org.troupe.bench.serialization;

import java.io.Serializable;

/** The small object argument of a {@link Request}. */
public class Payload implements Serializable {
    long id;
    double x;
    String name;
}
