package org.troupe.bench.jem3d;

import java.util.Locale;
import org.troupe.bench.Figure;

/**
 * {@code {"suite":"jem3d","case","mesh","tet_steps_per_s","efficiency","heap_bytes_per_tet","runs",
 * "tet_steps_per_s_worst","steps","subdomains","other_cpu_cores_max"}}: the median rate of the time loop over
 * {@code runs} runs (set-up excluded), its efficiency against the sequential run on the same mesh, the solver's heap
 * per tetrahedron, the slowest run's rate, the steps of each run, the subdomains, and the most CPU (in cores) that
 * other processes of the machine took during one of the runs (left out where /proc cannot tell).
 */
record RunFigure(
        String caseName,
        int mesh,
        double rateMedian,
        double efficiency,
        double heapBytesPerTet,
        int runs,
        double rateWorst,
        int steps,
        int subdomains,
        double otherCpuCoresMax)
        implements Figure {
    @Override
    public String toJson() {
        if (!Double.isFinite(efficiency) || efficiency < 0) {
            throw new IllegalArgumentException("not an efficiency: " + efficiency);
        }
        return "{\"suite\":\"jem3d\",\"case\":" + Figure.quote(caseName)
                + ",\"mesh\":" + mesh
                + ",\"tet_steps_per_s\":" + Figure.number(rateMedian, "rate")
                + ",\"efficiency\":" + String.format(Locale.ROOT, "%.3f", efficiency)
                + ",\"heap_bytes_per_tet\":" + Figure.number(heapBytesPerTet, "heap per tetrahedron")
                + ",\"runs\":" + runs
                + ",\"tet_steps_per_s_worst\":" + Figure.number(rateWorst, "rate")
                + ",\"steps\":" + steps
                + ",\"subdomains\":" + subdomains
                + (Double.isNaN(otherCpuCoresMax)
                        ? ""
                        : ",\"other_cpu_cores_max\":" + Figure.number(otherCpuCoresMax, "CPU use"))
                + "}";
    }
}
