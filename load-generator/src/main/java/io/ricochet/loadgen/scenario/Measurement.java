package io.ricochet.loadgen.scenario;

import io.ricochet.loadgen.report.ServerSummary;
import io.ricochet.loadgen.stats.RunStats;

/**
 * What a {@link LoadDriver} measured, from which each kind of load builds its summary.
 *
 * @param total             counts since measurement began (warmup excluded)
 * @param seconds           from the start of measurement to the end of the drain
 * @param sendingSeconds    from the start of measurement to when sending stopped
 * @param latencies         every measured interval's histograms, added (connect and handshake times include warmup's)
 * @param handshakeFailures TLS handshakes that failed, warmup included
 * @param server            the scraped server over the same span, or null without a scrape
 */
public record Measurement(RunStats.Counts total, double seconds, double sendingSeconds, Latencies latencies,
        long handshakeFailures, ServerSummary server) {
}
