package org.troupe.bench.core;

import org.troupe.bench.Figure;

/** {@code {"suite":"core","case","impl","ns_per_op","ops_per_s"}}: the cost of one call, and its inverse. */
record CoreFigure(String caseName, String impl, double nsPerOp) implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"core\",\"case\":" + Figure.quote(caseName)
            + ",\"impl\":" + Figure.quote(impl)
            + ",\"ns_per_op\":" + Figure.number(nsPerOp, "time of " + caseName + "/" + impl)
            + ",\"ops_per_s\":" + Figure.number(1e9 / nsPerOp, "rate of " + caseName + "/" + impl) + "}";
    }
}
