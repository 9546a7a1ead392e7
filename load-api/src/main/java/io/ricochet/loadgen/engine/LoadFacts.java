package io.ricochet.loadgen.engine;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What a load knows of its run beyond counts and latencies, for its summary.
 *
 * @param io           the client I/O transport it ran on (epoll, io_uring, nio)
 * @param latencyKind  {@code corrected} (open loop) or {@code closed_loop}
 * @param tlsSession   the TLS protocol and suite the first handshake settled on, with the client's provider; or null
 * @param earlyData    over QUIC with a connection per request: how many sent their request as 0-RTT; or null
 * @param firstError   the first failure (connect, I/O, a request unanswered, a workload's exception), or null
 * @param firstBad     the first bad reply's request and reason, or null
 * @param requestSpanS for a run of a fixed number of requests, seconds from its first send to its last reply; else 0
 * @param steps        latency of each named step, for workloads made of steps (register); empty otherwise
 * @param lanes        each connection's figures, where the load keeps them (rpc's clients); empty otherwise
 */
public record LoadFacts(String io, String latencyKind, String tlsSession, EarlyData earlyData, String firstError,
        String firstBad, double requestSpanS, Map<String, Histogram> steps, List<LaneFigures> lanes) {

    /** Of {@code connections} QUIC connections opened, warmup included, {@code early} sent their first data as 0-RTT. */
    public record EarlyData(long early, long connections) {
    }

    /**
     * One connection's share and how it went: its requests, outcomes, the seconds from its first send to its last
     * answer, and its latency.
     */
    public record LaneFigures(int index, long requests, long ok, long bad, long errors, double seconds,
            Histogram latency) {
    }
}
