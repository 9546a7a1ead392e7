package io.ricochet.loadgen.report;

import org.HdrHistogram.Histogram;

/** Latency percentiles in microseconds, read from one histogram. */
public record LatencySummary(long count, long min, double mean, long p50, long p90, long p99, long p999, long max) {

    public static LatencySummary of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(h.getTotalCount(), h.getMinValue(), Math.round(h.getMean() * 10) / 10.0,
                h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9), h.getMaxValue());
    }
}
