package io.ricochet.loadgen.distributed;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * An interval report whose every field passed its check, with its histograms decoded (null if empty).
 * A report is checked as a whole before anything of it is merged, so a bad one changes nothing.
 * Its index and interval number are the controller's and the merger's to check.
 */
record ValidReport(IntervalReport report, Histogram latency, Histogram service, Histogram connect, Histogram handshake) {
    /**
     * Most one report may count of anything: 2.8e14, far past any interval (a million per second for nine
     * years), and low enough that summing reports over workers and intervals cannot overflow a long.
     */
    static final long MAX_COUNT = 1L << 48;

    /** @throws IllegalArgumentException naming the first field that is wrong */
    static ValidReport of(IntervalReport r) {
        count("sent", r.getSent());
        count("ok", r.getOk());
        count("bad", r.getBad());
        count("errors", r.getErrors());
        count("late", r.getLate());
        count("unexpected", r.getUnexpected());
        count("ok_bytes", r.getOkBytes());
        count("connects", r.getConnects());
        count("connect_failures", r.getConnectFailures());
        count("handshake_failures", r.getHandshakeFailures());
        count("open_connections", r.getOpenConnections());
        if (!Double.isFinite(r.getElapsedS()) || r.getElapsedS() < 0) {
            throw new IllegalArgumentException("elapsed_s: " + r.getElapsedS() + " (expected: finite, >= 0)");
        }
        if (r.getStartMillis() < 0) {
            throw new IllegalArgumentException("start_millis: " + r.getStartMillis() + " (expected: >= 0)");
        }
        if (r.getEndMillis() < r.getStartMillis()) {
            throw new IllegalArgumentException("end_millis: " + r.getEndMillis() + " (expected: >= start_millis, "
                    + r.getStartMillis() + ")");
        }
        return new ValidReport(r, histogram("latency", r.getLatency()), histogram("service", r.getService()),
                histogram("connect", r.getConnect()), histogram("handshake", r.getHandshake()));
    }

    private static void count(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: >= 0)");
        }
        if (value > MAX_COUNT) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: <= " + MAX_COUNT + ")");
        }
    }

    private static Histogram histogram(String field, ByteString bytes) {
        HistogramCodec.Bounded decoded;
        try {
            decoded = HistogramCodec.decodeBounded(bytes, MAX_COUNT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
        }
        if (!decoded.countsWithin()) {
            nameTheCountOutOfBounds(field, decoded.histogram());
        }
        return decoded.histogram();
    }

    /**
     * Walks every bucket to name the first count, or running total, out of bounds: only for a histogram already known
     * to have one. The total is summed here over every bucket: counts near 2^63 can wrap the histogram's own total to a
     * small number, which would also end an iteration over the recorded values early.
     */
    private static void nameTheCountOutOfBounds(String field, Histogram h) {
        long total = 0;
        for (HistogramIterationValue bucket : h.allValues()) {
            long n = bucket.getCountAtValueIteratedTo();
            if (n < 0 || n > MAX_COUNT) {
                count(field + " count at " + bucket.getValueIteratedTo(), n);
            }
            total += n;
            if (total < 0 || total > MAX_COUNT) {
                count(field + " total count", total);
            }
        }
        throw new IllegalArgumentException(field + ": a count out of bounds (expected: each, and their sum, 0.."
                + MAX_COUNT + ")");
    }
}
