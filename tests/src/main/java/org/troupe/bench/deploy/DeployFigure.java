package org.troupe.bench.deploy;

import org.troupe.bench.Figure;

/**
 * One implementation's times for one case: until every node was attached ({@code acquire}) and until everything
 * it started had ended ({@code release}), medians and ranges over {@code runs} runs, in milliseconds.
 */
record DeployFigure(
        String caseName,
        String impl,
        int runs,
        double acquireMedian,
        double acquireMin,
        double acquireMax,
        double releaseMedian)
        implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"deploy\",\"case\":" + Figure.quote(caseName) + ",\"impl\":" + Figure.quote(impl)
                + ",\"runs\":" + runs
                + ",\"acquire_ms_median\":" + Figure.number(acquireMedian, "time")
                + ",\"acquire_ms_min\":" + Figure.number(acquireMin, "time")
                + ",\"acquire_ms_max\":" + Figure.number(acquireMax, "time")
                + ",\"release_ms_median\":" + Figure.number(releaseMedian, "time") + "}";
    }
}
