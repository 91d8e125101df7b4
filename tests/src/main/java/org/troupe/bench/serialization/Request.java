package org.troupe.bench.serialization;

import java.io.Serializable;

/** What a remote method call carries: a method id, a few scalar arguments and one small object argument. */
public class Request implements Serializable {
    int methodId;
    int a;
    int b;
    int c;
    Payload p;
}
