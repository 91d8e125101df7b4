package org.troupe.bench.monitor;

import org.troupe.bench.Figure;

/**
 * The console's cost on one run: the CPU of its own threads (building the state, serving the page and its event
 * stream), of the whole launcher JVM and of the browser, each in percent of one core over {@code seconds}, with the
 * page attached; and the size of one state update.
 */
record ConsoleFigure(
        int jvms,
        long updateMillis,
        double seconds,
        String browser,
        double consoleCpuPercent,
        double consoleCpuIdlePercent,
        double launcherCpuPercent,
        double browserCpuPercent,
        int stateBytes)
        implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"monitor\",\"case\":\"console-16\",\"jvms\":" + jvms + ",\"update_ms\":" + updateMillis
                + ",\"seconds\":" + Figure.number(seconds, "time")
                + ",\"browser\":" + Figure.quote(browser)
                + ",\"console_cpu_percent\":" + Figure.number(consoleCpuPercent, "cpu")
                + ",\"console_cpu_percent_no_page\":" + Figure.number(consoleCpuIdlePercent, "cpu")
                + ",\"launcher_cpu_percent\":" + Figure.number(launcherCpuPercent, "cpu")
                + ",\"browser_cpu_percent\":" + Figure.number(browserCpuPercent, "cpu")
                + ",\"state_bytes\":" + stateBytes + "}";
    }
}
