package io.ricochet.loadgen.report;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/** Prints an {@link RpcSummary} with nbagent's columns, then the steps, the client spread and the server check. */
public final class RpcSummaryTable {
    private RpcSummaryTable() {
    }

    public static void print(RpcSummary s, PrintWriter out) {
        LatencySummary l = s.latencyUs();
        String shape = s.command().equals("register") ? "concurrency = pairs, a request = one cycle"
                : s.inFlightPerClient() + " in flight per client";
        out.println(s.command() + " -> " + s.target() + " (" + s.io() + "), " + shape + ", latency closed loop (from send)");
        out.println(String.format(Locale.ROOT, "%12s %11s %12s %12s %8s %9s %12s %9s %9s %9s %9s %9s %8s %10s",
                "requests", "concurrency", "received", "received_ok", "errors", "time(s)", "QPS", "avg(us)", "median",
                "max", "min", "p99", "srv_cpu", "srv_rss_MB"));
        out.println(String.format(Locale.ROOT, "%12d %11d %12d %12d %8d %9.2f %12.1f %9.1f %9d %9d %9d %9d %8s %10s",
                s.requests(), s.concurrency(), s.received(), s.receivedOk(), s.errors(), s.totalTimeS(), s.qps(),
                l.mean(), l.p50(),
                l.max(), l.min(), l.p99(), s.server() == null ? "-" : SummaryTable.pct(s.server().cpuMax()),
                s.server() == null ? "-" : SummaryTable.mb(s.server().rssMaxBytes())));
        for (Map.Entry<String, LatencySummary> step : s.stepsLatencyUs().entrySet()) {
            LatencySummary v = step.getValue();
            out.printf(Locale.ROOT, "step %-13s avg %.1f  median %d  p99 %d  max %d us%n", step.getKey(), v.mean(),
                    v.p50(), v.p99(), v.max());
        }
        if (!s.clients().isEmpty()) {
            double min = s.clients().stream().mapToDouble(ClientRow::qps).min().orElse(0);
            double max = s.clients().stream().mapToDouble(ClientRow::qps).max().orElse(0);
            long worstP99 = s.clients().stream().mapToLong(c -> c.latencyUs().p99()).max().orElse(0);
            out.printf(Locale.ROOT, "per client: QPS min %.1f  max %.1f; worst client p99 %d us (all rows: --report)%n",
                    min, max, worstP99);
        }
        ServerLines.print(s.server(), out);
        if (s.server() != null && !Double.isNaN(s.server().rpcRequests())) {
            if (s.command().equals("register")) {
                // A cycle is one request per step: the server counts each, the client counts the cycle.
                int perCycle = s.stepsLatencyUs().size();
                out.printf(Locale.ROOT, "cross-check: server RPC requests grew by %.0f%s, client received %d cycles "
                        + "of %d requests (%s) = %d%n", s.server().rpcRequests(), ServerLines.summed(s.server()),
                        s.received(), perCycle,
                        String.join(", ", s.stepsLatencyUs().keySet()), s.received() * perCycle);
            } else {
                out.printf(Locale.ROOT, "cross-check: server RPC requests grew by %.0f%s, client received %d%n",
                        s.server().rpcRequests(), ServerLines.summed(s.server()), s.received());
            }
        }
        if (s.firstError() != null) {
            out.println("first error: " + s.firstError());
        }
        if (s.firstBad() != null) {
            out.println("first bad reply: " + s.firstBad());
        }
        out.flush();
    }
}
