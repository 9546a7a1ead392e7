package io.ricochet.loadgen.report;

import java.util.List;

/**
 * One line of {@code intervals.csv} and of the live progress. Figures are kept to what they mean: milliseconds of
 * time, a tenth of a request per second, four digits of CPU; NaN is a server figure not measured (an empty cell).
 */
public record IntervalRow(double timeS, int connections, long requests, long ok, long bad, long errors,
        long unexpected, double qps, long p50Us, long p99Us, long maxUs, double serverCpu, double serverRssBytes) {

    public static final List<String> COLUMNS = List.of("time_s", "connections", "requests", "ok", "bad", "errors",
            "unexpected", "qps", "p50_us", "p99_us", "max_us", "server_cpu", "server_rss_bytes");

    public IntervalRow {
        timeS = round(timeS, 1e3);
        qps = round(qps, 10);
        serverCpu = round(serverCpu, 1e4);
    }

    private static double round(double v, double scale) {
        return Double.isNaN(v) ? v : Math.round(v * scale) / scale;
    }
}
