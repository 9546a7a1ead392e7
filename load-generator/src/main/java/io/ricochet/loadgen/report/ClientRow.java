package io.ricochet.loadgen.report;

/** One client of an {@code rpc} run: its share of the requests and how they went. */
public record ClientRow(int client, long requests, long ok, long bad, long errors, double qps, LatencySummary latencyUs) {

    public static final String CSV_HEADER = "client,requests,ok,bad,errors,qps,avg_us,p50_us,p99_us,max_us";

    public String csv() {
        return String.format(java.util.Locale.ROOT, "%d,%d,%d,%d,%d,%.1f,%.1f,%d,%d,%d", client, requests, ok, bad,
                errors, qps, latencyUs.mean(), latencyUs.p50(), latencyUs.p99(), latencyUs.max());
    }
}
