package org.troupe.bench.core;

import org.troupe.bench.Figure;

/**
 * {@code {"suite":"core","case":"call-hops-remote","impl":"troupe","hop","ns_per_op","p50_ns","p99_ns","calls"}}: one
 * hop of a remote call's round trip, its mean, median and 99th percentile over the traced calls.
 */
record HopFigure(String hop, double mean, double p50, double p99, int calls) implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"core\",\"case\":" + Figure.quote(CoreSuite.HOPS) + ",\"impl\":\"troupe\",\"hop\":"
                + Figure.quote(hop) + ",\"ns_per_op\":" + Figure.number(mean, "mean of " + hop)
                + ",\"p50_ns\":" + Figure.number(p50, "median of " + hop)
                + ",\"p99_ns\":" + Figure.number(p99, "99th percentile of " + hop) + ",\"calls\":" + calls + "}";
    }
}
