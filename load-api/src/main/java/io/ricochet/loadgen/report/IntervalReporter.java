package io.ricochet.loadgen.report;

import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.scrape.ServerSample;
import io.ricochet.loadgen.stats.RunStats;
import java.io.PrintStream;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Turns one measured interval into all a run shows and keeps of it: the {@code intervals.csv} row and the
 * {@code latency.hlog} entry, the hand-over to a controller (a worker's hooks), and the progress line. Single runs,
 * RPC runs and the controller's merged intervals all go through it, so their rows, files and lines cannot drift apart.
 */
public final class IntervalReporter {
    private final ReportWriter report;
    private final PrintStream progress;
    private final Consumer<Interval> handOver;

    /**
     * @param report   the report directory's writer, or null for none
     * @param progress where progress lines go, or null for none
     * @param handOver what else takes each interval (a worker's hooks); it must copy what it keeps
     */
    public IntervalReporter(ReportWriter report, PrintStream progress, Consumer<Interval> handOver) {
        this.report = report;
        this.progress = progress;
        this.handOver = handOver;
    }

    /**
     * Reports {@code interval}, whose rate is taken over {@code lengthS} seconds (its real length: the last interval
     * of a run is cut short or stretched by the drain), with the server as {@code server} sampled it.
     */
    public IntervalRow emit(Interval interval, double lengthS, ServerSample server, ProgressLine line) {
        Histogram latency = interval.latency();
        RunStats.Counts delta = interval.delta();
        IntervalRow row = new IntervalRow(interval.elapsedS(), interval.openConnections(), delta.completed(),
                delta.ok(), delta.bad(), delta.errors(), delta.unexpected(), delta.completed() / Math.max(1e-3, lengthS),
                latency.getValueAtPercentile(50), latency.getValueAtPercentile(99), latency.getMaxValue(), server.cpu(),
                server.rssBytes());
        if (report != null) {
            report.interval(row, interval);
        }
        handOver.accept(interval);
        if (progress != null) {
            progress.print(line.format(interval, row));
        }
        return row;
    }
}
