package org.troupe.bench.mpi;

import org.troupe.bench.Figure;

/**
 * {@code {"suite":"mpi","case","impl","mode","np",["ppn",]["transport",]"bytes","us","p99_us","MBps"}}: the median
 * time of one operation (a half round trip for pingpong, one exchange both ways for sendrecv) in microseconds, its
 * 99th percentile, and the payload over the median time; {@code ppn}, the ranks per JVM, in hybrid rows only;
 * {@code transport}, what linked the ranks' JVMs ({@code shm} or {@code tcp}), in rows of ranks in JVMs of their own.
 */
record MpiFigure(
        String benchCase,
        String impl,
        String mode,
        int np,
        int bytes,
        double us,
        double p99Us,
        int ppn,
        String transport)
        implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"mpi\",\"case\":" + Figure.quote(benchCase) + ",\"impl\":" + Figure.quote(impl)
                + ",\"mode\":" + Figure.quote(mode) + ",\"np\":" + np + (ppn > 0 ? ",\"ppn\":" + ppn : "")
                + (transport == null ? "" : ",\"transport\":" + Figure.quote(transport))
                + ",\"bytes\":" + bytes
                + ",\"us\":" + Figure.number(us, "median time") + ",\"p99_us\":" + Figure.number(p99Us, "p99 time")
                + ",\"MBps\":" + Figure.number(bytes / us, "bandwidth") + "}";
    }
}
