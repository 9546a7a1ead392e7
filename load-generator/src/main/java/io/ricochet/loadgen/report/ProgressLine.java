package io.ricochet.loadgen.report;

import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/** How a kind of run states one interval on its live progress line; each ends with a newline. */
@FunctionalInterface
public interface ProgressLine {

    String format(IntervalData interval, IntervalRow row);

    /** A run of a set duration: {@code [  2.0s/10.0s] connections 100  qps …}. */
    static ProgressLine timed(Duration duration) {
        double total = duration.toNanos() / 1e9;
        return (interval, row) -> String.format(Locale.ROOT,
                "[%6.1fs/%.1fs] connections %d  qps %,.0f  p50 %,dus  p99 %,dus  errors %d  bad %d%n",
                row.timeS(), total, row.connections(), row.qps(), row.p50Us(), row.p99Us(), row.errors(), row.bad());
    }

    /** A run of a set number of requests: {@code [  2.0s] received 1,000/5,000  qps …}, received so far. */
    static ProgressLine counted(LongSupplier received, long total) {
        return (interval, row) -> String.format(Locale.ROOT,
                "[%6.1fs] received %,d/%,d  qps %,.0f  p50 %,dus  p99 %,dus  errors %d  bad %d%n",
                row.timeS(), received.getAsLong(), total, row.qps(), row.p50Us(), row.p99Us(), row.errors(), row.bad());
    }

    /** An interval merged from workers: {@code [  2.0s] workers 3/4  connections …}. */
    static ProgressLine merged(int reporting, int workers) {
        return (interval, row) -> String.format(Locale.ROOT,
                "[%6.1fs] workers %d/%d  connections %d  qps %,.0f  p50 %,dus  p99 %,dus  errors %d  bad %d%n",
                row.timeS(), reporting, workers, row.connections(), row.qps(), row.p50Us(), row.p99Us(), row.errors(),
                row.bad());
    }
}
