package io.ricochet.loadgen.distributed;

import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.stats.RunStats;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Merges the workers' interval reports into the run's intervals, by interval number. Histograms are
 * added, never averaged, so every merged percentile is exact. An interval is complete when every
 * worker still running has reported it, or when it is overdue; a report that comes after its interval
 * was emitted joins the next one, so nothing is dropped. Not thread-safe: callers hold the
 * {@link WorkerRoster}'s lock.
 *
 * <p>Each pending interval holds four full-range histograms, so only reports within {@code window}
 * intervals of the run's clock (or of the next interval to emit, if that is later) are taken. Pending
 * intervals are then bounded by the window plus however far emitting lags the clock: real time, never
 * a peer's choice of interval numbers.
 */
final class IntervalMerger {
    /** One merged interval. */
    static final class Merged {
        final long interval;
        final Set<Integer> reporters = new HashSet<>();
        final Histogram latency = RunStats.newHistogram();
        final Histogram service = RunStats.newHistogram();
        final Histogram connect = RunStats.newHistogram();
        final Histogram handshake = RunStats.newHistogram();
        final long firstSeenNanos;
        double elapsedS;
        long startMillis = Long.MAX_VALUE;
        long endMillis;
        int openConnections;
        final ReportedCounts counts = new ReportedCounts();

        Merged(long interval, long nowNanos) {
            this.interval = interval;
            this.firstSeenNanos = nowNanos;
        }

        /**
         * The merged interval as one run's would be, for the {@link io.ricochet.loadgen.report.IntervalReporter}; with
         * a handshake histogram once the run's workers have timed handshakes.
         */
        Interval toInterval(boolean handshakes) {
            return new Interval(interval, elapsedS, startMillis, endMillis, openConnections,
                    counts.toCounts(counts.sent, counts.connects), latency, service, connect,
                    handshakes ? handshake : null, counts.handshakeFailures);
        }
    }

    /** Intervals a report may be ahead of the next to emit when the controller does not say otherwise. */
    static final int DEFAULT_WINDOW = 60;

    private final TreeMap<Long, Merged> pending = new TreeMap<>();
    private boolean timesHandshakes;
    private final int window;
    private long nextToEmit;
    private long clockInterval;

    IntervalMerger() {
        this(DEFAULT_WINDOW);
    }

    IntervalMerger(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window: " + window + " (expected: >= 1)");
        }
        this.window = window;
    }

    /**
     * Merges {@code report} into its interval; also adds its histograms to the run's {@code totals} (latency,
     * service, connect). All or nothing: the report is checked whole, and its histograms decoded, first.
     *
     * @throws IllegalArgumentException if the report is outside the window or any field is wrong; nothing is merged
     */
    void add(IntervalReport report, long nowNanos, Histogram workerLatency, Histogram totalLatency, Histogram totalService,
            Histogram totalConnect) {
        add(report, nowNanos, workerLatency, totalLatency, totalService, totalConnect, RunStats.newHistogram());
    }

    /** As above, also adding its TLS handshakes to {@code totalHandshake}. */
    void add(IntervalReport report, long nowNanos, Histogram workerLatency, Histogram totalLatency, Histogram totalService,
            Histogram totalConnect, Histogram totalHandshake) {
        long from = Math.max(nextToEmit, clockInterval);
        long limit = from + window;
        if (report.getInterval() > limit) {
            throw new IllegalArgumentException("interval: " + report.getInterval() + " (expected: <= " + limit + ", within "
                    + window + " of the run's interval " + from + ")");
        }
        ValidReport valid = ValidReport.of(report);
        long slot = Math.max(report.getInterval(), nextToEmit);
        Merged m = pending.computeIfAbsent(slot, k -> new Merged(k, nowNanos));
        m.reporters.add(report.getIndex());
        m.elapsedS = Math.max(m.elapsedS, report.getElapsedS());
        m.startMillis = Math.min(m.startMillis, report.getStartMillis());
        m.endMillis = Math.max(m.endMillis, report.getEndMillis());
        m.openConnections += report.getOpenConnections();
        m.counts.add(report);
        // Sticky: a TLS run's later intervals, with no new connections, still carry (empty) handshake figures.
        timesHandshakes |= !report.getHandshake().isEmpty() || report.getHandshakeFailures() > 0;
        addTo(valid.latency(), m.latency, workerLatency, totalLatency);
        addTo(valid.service(), m.service, totalService);
        addTo(valid.connect(), m.connect, totalConnect);
        addTo(valid.handshake(), m.handshake, totalHandshake);
    }

    private static void addTo(Histogram decoded, Histogram... into) {
        if (decoded != null) {
            for (Histogram target : into) {
                target.add(decoded);
            }
        }
    }

    /**
     * The interval the run's clock is in: reports may run this far ahead of a slow emitter (a scrape that
     * hangs holds emitting up, not the workers).
     */
    void advanceClock(long interval) {
        clockInterval = Math.max(clockInterval, interval);
    }

    /** Whether any worker has timed TLS or Noise handshakes in this run. */
    boolean timesHandshakes() {
        return timesHandshakes;
    }

    /** Intervals waiting to be emitted. */
    int pendingIntervals() {
        return pending.size();
    }

    /**
     * The next interval if it is complete: reported by all of {@code running}, or waiting longer than
     * {@code overdueNanos}; else null. With {@code flush}, whatever is pending.
     */
    Merged poll(Set<Integer> running, long nowNanos, long overdueNanos, boolean flush) {
        Merged next = pending.isEmpty() ? null : pending.firstEntry().getValue();
        if (next == null) {
            return null;
        }
        if (flush || next.reporters.containsAll(running) || nowNanos - next.firstSeenNanos > overdueNanos) {
            pending.pollFirstEntry();
            nextToEmit = next.interval + 1;
            return next;
        }
        return null;
    }
}
