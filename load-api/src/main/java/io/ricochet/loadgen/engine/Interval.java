package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.stats.RunStats;
import org.HdrHistogram.Histogram;

/**
 * One measured interval of a run: what the report keeps of it, and what a worker streams to the controller.
 *
 * @param index           0 for the first measured interval
 * @param elapsedS        seconds since the start of measurement at the interval's end
 * @param startMillis     epoch milliseconds of the interval's start
 * @param endMillis       epoch milliseconds of its end
 * @param openConnections connections open at its end
 * @param delta           what the counters grew by during it
 * @param latency         the reported latency (corrected in open loop, service time in closed loop)
 * @param service         the service time in open loop; null in closed loop
 * @param connect         connect times during it
 * @param handshake       TLS handshake times during it; null without TLS
 * @param handshakeFailures TLS handshakes that failed during it
 */
public record Interval(long index, double elapsedS, long startMillis, long endMillis, int openConnections,
        RunStats.Counts delta, Histogram latency, Histogram service, Histogram connect, Histogram handshake,
        long handshakeFailures) {
}
