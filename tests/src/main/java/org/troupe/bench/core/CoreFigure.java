package org.troupe.bench.core;

import org.troupe.bench.Figure;
import org.troupe.bench.QuickHarness;

/**
 * {@code {"suite":"core","case","impl","ns_per_op","ops_per_s","p50_ns","p99_ns"}}: the mean cost of one call, its
 * inverse, and the median and 99th percentile of one call's time (see {@link CoreSuite} for how each is taken);
 * for a case that moves bulk data, also {@code "MBps"}.
 */
record CoreFigure(String caseName, String impl, QuickHarness.Timing perCall, double megabytesPerSecond)
        implements Figure {
    @Override
    public String toJson() {
        final String what = caseName + "/" + impl;
        return "{\"suite\":\"core\",\"case\":" + Figure.quote(caseName)
                + ",\"impl\":" + Figure.quote(impl)
                + ",\"ns_per_op\":" + Figure.number(perCall.nsPerOp(), "time of " + what)
                + ",\"ops_per_s\":" + Figure.number(1e9 / perCall.nsPerOp(), "rate of " + what)
                + ",\"p50_ns\":" + Figure.number(perCall.p50Ns(), "median time of " + what)
                + ",\"p99_ns\":" + Figure.number(perCall.p99Ns(), "99th percentile time of " + what)
                + (megabytesPerSecond > 0
                        ? ",\"MBps\":" + Figure.number(megabytesPerSecond, "bandwidth of " + what)
                        : "")
                + "}";
    }
}
