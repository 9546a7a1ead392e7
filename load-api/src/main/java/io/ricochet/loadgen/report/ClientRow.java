package io.ricochet.loadgen.report;

import java.util.List;

/** One client of an {@code rpc} run: its share of the requests and how they went. */
public record ClientRow(int client, long requests, long ok, long bad, long errors, double qps, LatencySummary latencyUs) {

    public static final List<String> COLUMNS = List.of("client", "requests", "ok", "bad", "errors", "qps", "avg_us",
            "p50_us", "p99_us", "max_us");

    /** Its row of {@code clients.csv}, the latency's figures flat beside the counts. */
    public Csv csv() {
        return new Csv(client, requests, ok, bad, errors, Math.round(qps * 10) / 10.0,
                Math.round(latencyUs.mean() * 10) / 10.0, latencyUs.p50(), latencyUs.p99(), latencyUs.max());
    }

    public record Csv(int client, long requests, long ok, long bad, long errors, double qps, double avgUs, long p50Us,
            long p99Us, long maxUs) {
    }
}
