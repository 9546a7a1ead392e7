package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.stats.RunStats;

/**
 * What a {@link LoadDriver} measured, from which each kind of run builds its summary.
 *
 * @param total             counts since measurement began (warmup excluded)
 * @param seconds           from the start of measurement to the end of the drain
 * @param sendingSeconds    from the start of measurement to when sending stopped
 * @param latencies         every measured interval's histograms, added (connect and handshake times include warmup's)
 * @param handshakeFailures handshakes that failed, warmup included
 * @param facts             what the load knows of its run beyond counts and latencies
 */
public record Measurement(RunStats.Counts total, double seconds, double sendingSeconds, Latencies latencies,
        long handshakeFailures, LoadFacts facts) {

    /** The seconds rates are taken over: from the first send to the last reply when a request count bounds the run. */
    public double rateSeconds() {
        return facts.requestSpanS() > 0 ? facts.requestSpanS() : seconds;
    }
}
