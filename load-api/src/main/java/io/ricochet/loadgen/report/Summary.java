package io.ricochet.loadgen.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.ricochet.loadgen.scrape.ServerSummary;

/**
 * The end of a run, in the columns of the reference reports. {@code requests} = ok + bad + errors; {@code unexpected}
 * counts frames the server sent that answered no request, apart from them (they never count toward {@code qps}).
 * {@code latencyKind} is {@code corrected} (open loop, from the intended send time; the service time
 * from the actual send is in {@code serviceLatencyUs}) or {@code closed_loop}. {@code handshakeTimeUs}
 * (TLS handshakes, from the TCP connect to the handshake's end) and {@code handshakeFailures} are
 * present only over TLS. {@code earlyData}, over QUIC only ({@code crr}), says how many transactions sent their request
 * before the handshake completed (0-RTT), warmup included. {@code firstError} is the first failure (a connect, a request
 * unanswered, a workload's exception), {@code firstBad} the first bad reply's request and the check's reason.
 */
public record Summary(
        String command,
        String target,
        String transport,
        String io,
        long requests,
        int connections,
        long ok,
        long bad,
        long errors,
        long late,
        long unexpected,
        long connectFailures,
        double durationS,
        double qps,
        double throughputBytesPerS,
        LatencySummary latencyUs,
        String latencyKind,
        LatencySummary serviceLatencyUs,
        LatencySummary connectTimeUs,
        @JsonInclude(JsonInclude.Include.NON_NULL) LatencySummary handshakeTimeUs,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long handshakeFailures,
        @JsonInclude(JsonInclude.Include.NON_NULL) String tlsSession,
        @JsonInclude(JsonInclude.Include.NON_NULL) EarlyData earlyData,
        ServerSummary server,
        String firstError,
        String firstBad) {

    /** Of {@code connections} QUIC connections opened, warmup included, {@code early} sent their first data as 0-RTT. */
    public record EarlyData(long early, long connections) {
    }
}
