package org.troupe.bench.nozzle;

import org.troupe.bench.Figure;

/**
 * {@code {"suite":"nozzle","case","np","mode","cells","iterations","seconds","cell_updates_per_s"}}: the median time
 * of {@code iterations} steps of the solver on {@code np} ranks.
 */
record NozzleFigure(String benchCase, int np, String mode, int cells, int iterations, double seconds)
        implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"nozzle\",\"case\":" + Figure.quote(benchCase) + ",\"np\":" + np + ",\"mode\":"
                + Figure.quote(mode) + ",\"cells\":" + cells + ",\"iterations\":" + iterations + ",\"seconds\":"
                + Figure.number(seconds, "time") + ",\"cell_updates_per_s\":"
                + Figure.number((double) cells * iterations / seconds, "cell updates per second") + "}";
    }
}
