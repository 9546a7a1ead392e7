package io.ricochet.loadgen.report;

import io.ricochet.loadgen.scrape.ServerSummary;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Under a summary table, a line per scraped server when there are several: the table's {@code srv_} columns and the
 * cross-check are the servers summed, so each one's own figures are shown too.
 */
public final class ServerLines {
    private ServerLines() {
    }

    /** {@code server URL: cpu .., rss .. MB, connections .., frames.sent +.., rpc requests +..}, a line per server. */
    public static void print(ServerSummary server, PrintWriter out) {
        if (server == null || server.servers().size() < 2) {
            return;
        }
        for (ServerSummary s : server.servers()) {
            out.printf(Locale.ROOT, "server %s: cpu %s, rss %s MB, connections %s, frames.sent +%s, rpc requests +%s%n",
                    s.url(), SummaryTable.pct(s.cpuMax()), SummaryTable.mb(s.rssMaxBytes()),
                    count(s.activeConnectionsMax()), count(s.framesSent()), count(s.rpcRequests()));
        }
    }

    /** What a cross-check line adds after the server's figure: how many servers it sums, if more than one. */
    public static String summed(ServerSummary server) {
        return server.servers().size() < 2 ? "" : " (" + server.servers().size() + " servers summed)";
    }

    private static String count(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }
}
