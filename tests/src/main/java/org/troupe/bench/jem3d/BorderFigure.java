package org.troupe.bench.jem3d;

import org.troupe.bench.Figure;

/**
 * {@code {"suite":"jem3d","case":"border","impl","faces","ns_median","ns_p99","bytes","samples"}}: one border
 * message encoded and decoded, median and 99th percentile over {@code samples} timed messages, and its size.
 */
record BorderFigure(String impl, int faces, double nsMedian, double nsP99, int bytes, int samples) implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"jem3d\",\"case\":\"border\",\"impl\":" + Figure.quote(impl)
                + ",\"faces\":" + faces
                + ",\"ns_median\":" + Figure.number(nsMedian, "time")
                + ",\"ns_p99\":" + Figure.number(nsP99, "time")
                + ",\"bytes\":" + bytes
                + ",\"samples\":" + samples + "}";
    }
}
