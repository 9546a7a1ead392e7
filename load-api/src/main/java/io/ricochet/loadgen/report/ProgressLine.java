package io.ricochet.loadgen.report;

import io.ricochet.loadgen.engine.Interval;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** How a kind of run states one interval on its live progress line; each ends with a newline. */
@FunctionalInterface
public interface ProgressLine {

    String format(Interval interval, IntervalRow row);

    /** A run of a set duration: {@code [  2.0s/10.0s] connections 100  qps …}. */
    static ProgressLine timed(Duration duration) {
        return timed(duration, () -> null);
    }

    /**
     * As above, and when frames answered no request during the interval, how many; when connects failed, how many and
     * the last one's reason: {@code …  bad 0  connect failures 12 (cannot connect to 10.0.0.5:7000: connection refused)}.
     */
    static ProgressLine timed(Duration duration, Supplier<String> lastConnectFailure) {
        double total = duration.toNanos() / 1e9;
        return (interval, row) -> String.format(Locale.ROOT,
                "[%6.1fs/%.1fs] connections %d  qps %,.0f  p50 %,dus  p99 %,dus  errors %d  bad %d%s%s%n",
                row.timeS(), total, row.connections(), row.qps(), row.p50Us(), row.p99Us(), row.errors(), row.bad(),
                unexpected(row), connectFailures(interval, lastConnectFailure.get()));
    }

    private static String unexpected(IntervalRow row) {
        return row.unexpected() == 0 ? "" : "  unexpected " + row.unexpected();
    }

    private static String connectFailures(Interval interval, String reason) {
        long failures = interval.delta().connectFailures();
        return failures == 0 ? "" : "  connect failures " + failures + (reason == null ? "" : " (" + reason + ")");
    }

    /** A run of a set number of requests: {@code [  2.0s] received 1,000/5,000  qps …}, received so far. */
    static ProgressLine counted(LongSupplier received, long total) {
        return (interval, row) -> String.format(Locale.ROOT,
                "[%6.1fs] received %,d/%,d  qps %,.0f  p50 %,dus  p99 %,dus  errors %d  bad %d%n",
                row.timeS(), received.getAsLong(), total, row.qps(), row.p50Us(), row.p99Us(), row.errors(), row.bad());
    }

    /**
     * A datagram stream of a set duration: {@code [  2.0s/10.0s] sent 100,000 pps  received 99,000 pps  bad 0}, with
     * the rates over the interval's own length and bad replies so far.
     */
    static ProgressLine stream(Duration duration, LongSupplier badSoFar) {
        double total = duration.toNanos() / 1e9;
        return (interval, row) -> {
            double seconds = Math.max(1e-3, (interval.endMillis() - interval.startMillis()) / 1000.0);
            return String.format(Locale.ROOT, "[%6.1fs/%.1fs] sent %,d pps  received %,d pps  bad %d%n", row.timeS(),
                    total, (long) (interval.delta().sent() / seconds), (long) (interval.delta().ok() / seconds),
                    badSoFar.getAsLong());
        };
    }

    /** An interval merged from workers: {@code [  2.0s] workers 3/4  connections …}. */
    static ProgressLine merged(int reporting, int workers) {
        return (interval, row) -> String.format(Locale.ROOT,
                "[%6.1fs] workers %d/%d  connections %d  qps %,.0f  p50 %,dus  p99 %,dus  errors %d  bad %d%s%s%n",
                row.timeS(), reporting, workers, row.connections(), row.qps(), row.p50Us(), row.p99Us(), row.errors(),
                row.bad(), unexpected(row), connectFailures(interval, null));
    }
}
