package io.ricochet.loadgen.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.ricochet.loadgen.scrape.ServerSummary;
import java.util.List;
import java.util.Map;

/**
 * The end of an {@code rpc} or {@code register} run, in nbagent's columns: number of requests,
 * concurrency, received, received OK, total time, QPS and latency. For {@code register} a request is
 * one cycle (register, call, unregister, call again), and {@code steps} has each step's latency. {@code requests} are the
 * calls sent, each of which ended {@code received} (an answer came: {@code receivedOk} if verified, else {@code bad}) or
 * as one of the {@code errors} (no answer in time, or none could come: the call failed to go out, its connection
 * closed), so requests = received + errors and received = receivedOk + bad. {@code latencyKind} is
 * {@code closed_loop}, or {@code corrected} for calls at a {@code --rate}.
 */
public record RpcSummary(
        String command,
        String target,
        String io,
        long requests,
        int concurrency,
        int inFlightPerClient,
        long received,
        long receivedOk,
        long bad,
        long errors,
        double totalTimeS,
        double qps,
        LatencySummary latencyUs,
        String latencyKind,
        Map<String, LatencySummary> stepsLatencyUs,
        List<ClientRow> clients,
        ServerSummary server,
        String firstError,
        String firstBad) {

    /** {@code receivedOk} under the key every command uses ({@code received_ok} is its 0.x alias). */
    @JsonProperty("ok")
    public long ok() {
        return receivedOk;
    }

    /** {@code concurrency} under the key every command uses ({@code concurrency} is its 0.x alias). */
    @JsonProperty("connections")
    public int connections() {
        return concurrency;
    }

    /** {@code totalTimeS} under the key every command uses ({@code total_time_s} is its 0.x alias). */
    @JsonProperty("duration_s")
    public double durationS() {
        return totalTimeS;
    }
}
