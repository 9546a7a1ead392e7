package io.ricochet.loadgen.report;

/** One line of {@code intervals.csv} and of the live progress. */
public record IntervalRow(double timeS, int connections, long requests, long ok, long bad, long errors, double qps,
        long p50Us, long p99Us, long maxUs, double serverCpu, double serverRssBytes) {

    public static final String CSV_HEADER =
            "time_s,connections,requests,ok,bad,errors,qps,p50_us,p99_us,max_us,server_cpu,server_rss_bytes";

    public String csv() {
        return String.format(java.util.Locale.ROOT, "%.3f,%d,%d,%d,%d,%d,%.1f,%d,%d,%d,%s,%s", timeS, connections,
                requests, ok, bad, errors, qps, p50Us, p99Us, maxUs, num(serverCpu), num(serverRssBytes));
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(java.util.Locale.ROOT, "%.4f", v).replaceAll("\\.?0+$", "");
    }
}
