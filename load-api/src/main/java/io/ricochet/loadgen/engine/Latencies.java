package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.stats.RunStats;
import org.HdrHistogram.Histogram;

/**
 * The histograms a load records into, all in microseconds: corrected latency (open loop only), service time (from the
 * actual send), connect time and TLS handshake time.
 */
public record Latencies(Histogram corrected, Histogram service, Histogram connect, Histogram handshake) {

    public static Latencies empty() {
        return new Latencies(RunStats.newHistogram(), RunStats.newHistogram(), RunStats.newHistogram(),
                RunStats.newHistogram());
    }

    void reset() {
        corrected.reset();
        service.reset();
        connect.reset();
        handshake.reset();
    }

    void add(Latencies other) {
        corrected.add(other.corrected);
        service.add(other.service);
        connect.add(other.connect);
        handshake.add(other.handshake);
    }
}
