package io.ricochet.loadgen.report;

import java.io.PrintWriter;
import java.util.Locale;

/** Prints a {@link Summary} as the reference reports' table, one header row and one value row. */
public final class SummaryTable {
    private SummaryTable() {
    }

    public static void print(Summary s, PrintWriter out) {
        LatencySummary l = s.latencyUs();
        String header = String.format(Locale.ROOT, "%12s %11s %12s %8s %8s %9s %12s %14s %9s %8s %8s %8s %8s %9s %9s %8s %10s",
                "requests", "connections", "ok", "bad", "errors", "time(s)", "QPS", "bytes/s", "avg(us)", "min",
                "p50", "p90", "p99", "p99.9", "max", "srv_cpu", "srv_rss_MB");
        String row = String.format(Locale.ROOT, "%12d %11d %12d %8d %8d %9.2f %12.1f %14.0f %9.1f %8d %8d %8d %8d %9d %9d %8s %10s",
                s.requests(), s.connections(), s.ok(), s.bad(), s.errors(), s.durationS(), s.qps(),
                s.throughputBytesPerS(), l.mean(), l.min(), l.p50(), l.p90(), l.p99(), l.p999(), l.max(),
                s.server() == null ? "-" : pct(s.server().cpuMax()),
                s.server() == null ? "-" : mb(s.server().rssMaxBytes()));
        out.println(s.command() + " " + s.transport() + " -> " + s.target() + " (" + s.io() + "), latency "
                + label(s.latencyKind()));
        out.println(header);
        out.println(row);
        if (s.serviceLatencyUs() != null) {
            LatencySummary v = s.serviceLatencyUs();
            out.printf(Locale.ROOT, "service time (from actual send): avg %.1f  p50 %d  p90 %d  p99 %d  p99.9 %d  max %d us%n",
                    v.mean(), v.p50(), v.p90(), v.p99(), v.p999(), v.max());
        }
        if (s.connectTimeUs() != null && (s.connectTimeUs().count() > 0 || s.connectFailures() > 0)) {
            LatencySummary c = s.connectTimeUs();
            out.printf(Locale.ROOT, "connect time: %d connects, p50 %d  p99 %d  max %d us; %d failed%n",
                    c.count(), c.p50(), c.p99(), c.max(), s.connectFailures());
        }
        if (s.handshakeTimeUs() != null) {
            LatencySummary h = s.handshakeTimeUs();
            out.printf(Locale.ROOT, "handshake: %d handshakes, p50 %d  p90 %d  p99 %d  max %d us; %d failed%n",
                    h.count(), h.p50(), h.p90(), h.p99(), h.max(), s.handshakeFailures() == null ? 0 : s.handshakeFailures());
            if (s.tlsSession() != null) {
                out.println("tls: " + s.tlsSession());
            }
        }
        if (s.earlyData() != null) {
            out.printf(Locale.ROOT, "0-RTT: %d of %d connections sent their request as early data (warmup included)%n",
                    s.earlyData().early(), s.earlyData().connections());
        }
        ServerLines.print(s.server(), out);
        if (s.server() != null && !Double.isNaN(s.server().framesSent())) {
            out.printf(Locale.ROOT, "cross-check: server frames.sent grew by %.0f%s, client ok %d%s%n",
                    s.server().framesSent(), ServerLines.summed(s.server()), s.ok(), s.late() > 0 ? ", late " + s.late() : "");
        }
        if (s.unexpected() > 0) {
            out.println("unexpected: " + s.unexpected() + (s.unexpected() == 1 ? " frame" : " frames")
                    + " that answered no request, not counted as requests");
        }
        if (s.firstError() != null) {
            out.println("first error: " + s.firstError());
        }
        if (s.firstBad() != null) {
            out.println("first bad reply: " + s.firstBad());
        }
    }

    private static String label(String kind) {
        return switch (kind) {
            case "corrected" -> "corrected for coordinated omission (from intended send time)";
            case "closed_loop" -> "closed loop (from send)";
            default -> kind;
        };
    }

    /** A 0..1 fraction as a percentage, or - when unknown; shared by the other tables. */
    static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", v * 100);
    }

    /** Bytes as MiB, or - when unknown. */
    static String mb(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v / (1024 * 1024));
    }
}
