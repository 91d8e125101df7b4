package org.troupe.bench.jem3d;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPU that processes other than the measured ones used while a run went on, from {@code /proc} (Linux): the
 * machine's busy time minus that of the given JVMs, in cores (1.0 = one core busy the whole time). On a 2-core
 * machine a build or a test run beside the benchmark takes a core from a two-subdomain run, which then waits at
 * every exchange for the subdomain that lost its core; this tells such runs apart. NaN where {@code /proc} cannot
 * be read.
 */
final class CpuElsewhere {
    /** USER_HZ: the unit of /proc/stat and /proc/PID/stat times, 100 on every Linux architecture Java runs on. */
    private static final double TICKS_PER_SECOND = 100;

    private final List<Long> pids;
    private final long busy0;
    private final long mine0;
    private final long nanos0;

    private CpuElsewhere(final List<Long> pids) {
        this.pids = pids;
        this.busy0 = machineBusy();
        this.mine0 = ticksOf(pids);
        this.nanos0 = System.nanoTime();
    }

    /** Starts measuring; {@code pids} are the processes whose CPU is not counted (this JVM and its node JVMs). */
    static CpuElsewhere start(final List<Long> pids) {
        return new CpuElsewhere(pids);
    }

    /** Cores used by other processes since {@link #start}, on average; NaN if unknown. */
    double cores() {
        long busy = machineBusy();
        long mine = ticksOf(pids);
        double seconds = (System.nanoTime() - nanos0) / 1e9;
        if (busy < 0 || busy0 < 0 || mine < 0 || mine0 < 0 || seconds <= 0) {
            return Double.NaN;
        }
        return Math.max(0, (busy - busy0) - (mine - mine0)) / TICKS_PER_SECOND / seconds;
    }

    /** user + nice + system + irq + softirq + steal of the first line of /proc/stat (idle and iowait left out). */
    private static long machineBusy() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long ticksOf(final List<Long> pids) {
        long sum = 0;
        for (long pid : pids) {
            try {
                String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
                // after "pid (comm) ": state is field 3, utime 14, stime 15
                String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
                sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
        return sum;
    }
}
