package io.ricochet.loadgen.report;

import io.ricochet.loadgen.engine.LoadFacts;
import io.ricochet.loadgen.engine.Measurement;
import io.ricochet.loadgen.scrape.ServerSummary;
import io.ricochet.loadgen.stats.RunStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The one place a {@link Measurement} becomes a summary: every figure derived from the counts and the seconds (QPS,
 * bytes per second, loss) is computed here, for a single run and for a controller's merged one alike.
 */
public final class Summaries {
    private Summaries() {
    }

    /** An echo-style run's summary (echo, rr, crr, massive, ramp's and sweep's steps, and a controller's merge). */
    public static Summary frames(String command, String target, String transport, int connections, Measurement m,
            boolean handshakes, ServerSummary server) {
        RunStats.Counts total = m.total();
        LoadFacts facts = m.facts();
        double seconds = m.rateSeconds();
        boolean open = facts.latencyKind().equals("corrected");
        return new Summary(command, target, transport, facts.io(), total.completed(), connections, total.ok(),
                total.bad(), total.errors(), total.late(), total.unexpected(), total.connectFailures(), round(seconds),
                round(total.completed() / seconds), round(total.okBytes() / seconds),
                LatencySummary.of(open ? m.latencies().corrected() : m.latencies().service()), facts.latencyKind(),
                open ? LatencySummary.of(m.latencies().service()) : null, LatencySummary.of(m.latencies().connect()),
                handshakes ? LatencySummary.of(m.latencies().handshake()) : null,
                handshakes ? m.handshakeFailures() : null, facts.tlsSession(),
                facts.earlyData() == null ? null
                        : new Summary.EarlyData(facts.earlyData().early(), facts.earlyData().connections()),
                server, facts.firstError(), facts.firstBad());
    }

    /** An RPC run's summary, in nbagent's columns, with each client's row and each step's latency. */
    public static RpcSummary rpc(String command, String target, long requests, int clients, int inFlight,
            Measurement m, ServerSummary server) {
        RunStats.Counts total = m.total();
        LoadFacts facts = m.facts();
        double seconds = m.seconds();
        Map<String, LatencySummary> steps = new LinkedHashMap<>();
        for (Map.Entry<String, Histogram> step : facts.steps().entrySet()) {
            steps.put(step.getKey(), LatencySummary.of(step.getValue()));
        }
        List<ClientRow> rows = new ArrayList<>();
        for (LoadFacts.LaneFigures lane : facts.lanes()) {
            double laneSeconds = lane.seconds() > 0 ? lane.seconds() : seconds;
            rows.add(new ClientRow(lane.index(), lane.requests(), lane.ok(), lane.bad(), lane.errors(),
                    Math.round(lane.ok() / laneSeconds * 10) / 10.0, LatencySummary.of(lane.latency())));
        }
        boolean open = facts.latencyKind().equals("corrected");
        // Received: the answers that came, verified or not; a call that got none is an error, not among them.
        return new RpcSummary(command, target, facts.io(), requests, clients, inFlight, total.ok() + total.bad(),
                total.ok(), total.bad(), total.errors(), round(seconds), round(total.ok() / seconds),
                LatencySummary.of(open ? m.latencies().corrected() : m.latencies().service()), facts.latencyKind(),
                steps, rows, server,
                facts.firstError(), facts.firstBad());
    }

    /** A datagram stream's summary: rates over the sending time, loss = 1 - received/sent. */
    public static UdpStreamSummary datagrams(String target, int sockets, int size, double ratePps, Measurement m,
            ServerSummary server) {
        long sent = m.total().sent();
        long received = m.total().ok();
        double seconds = m.sendingSeconds();
        return new UdpStreamSummary("udp-stream", target, m.facts().io(), sockets, size, round4(seconds), ratePps, sent,
                received, m.total().bad(), round4(sent / seconds), round4(received / seconds),
                round4(m.total().okBytes() / seconds), sent == 0 ? 0 : round4(1 - (double) received / sent), server,
                m.facts().firstBad());
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static double round4(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
