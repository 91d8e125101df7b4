package org.troupe.bench.groups;

import org.troupe.bench.Figure;

/** {@code {"suite":"groups","case","impl","ns_per_op","bytes_serialized"}}: one op's time and bytes sent. */
record GroupFigure(String caseName, String impl, double nsPerOp, long bytesSerialized) implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"groups\",\"case\":" + Figure.quote(caseName)
                + ",\"impl\":" + Figure.quote(impl)
                + ",\"ns_per_op\":" + Figure.number(nsPerOp, "time of " + caseName + "/" + impl)
                + ",\"bytes_serialized\":" + bytesSerialized + "}";
    }
}
