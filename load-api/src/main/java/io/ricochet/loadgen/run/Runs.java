package io.ricochet.loadgen.run;

import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.engine.Load;
import io.ricochet.loadgen.engine.LoadDriver;
import io.ricochet.loadgen.engine.Measurement;
import io.ricochet.loadgen.engine.Progress;
import io.ricochet.loadgen.engine.RunListener;
import io.ricochet.loadgen.engine.Schedule;
import io.ricochet.loadgen.report.IntervalReporter;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.scrape.ServerSummary;
import io.ricochet.loadgen.scrape.ServerSamples;
import io.ricochet.loadgen.scrape.ServerWatch;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs one load on the engine and reports it: prepares it, measures it with the {@link LoadDriver}, writes each
 * interval to the report and the progress line and hands it to the hooks, scrapes the servers over the same span, and
 * builds, writes and hands over the summary. Every command, alone or as a worker, and the programmatic API run here.
 */
public final class Runs {
    private Runs() {
    }

    /** Builds a run's summary from what was measured and the servers' figures over the same span. */
    @FunctionalInterface
    public interface Summarizer<S> {
        /** @param report the report directory's writer, for files of the run's own; null without a report */
        S summarize(Measurement measurement, ServerSummary server, ReportWriter report);
    }

    /** Measures {@code load} (which the caller closes) on {@code schedule}, and returns its summary. */
    public static <S> S measure(Load load, Schedule schedule, RunOptions options, Summarizer<S> summarizer)
            throws InterruptedException {
        load.prepare();
        Map<String, Object> config = new LinkedHashMap<>(options.config());
        load.describe(config);
        ServerWatch server = new ServerWatch(options.scrape(), options.progress() != null ? options.progress() : System.err);
        try (ReportWriter report = options.reportDir() == null ? null
                : new ReportWriter(options.reportDir(), config, System.currentTimeMillis())) {
            IntervalReporter reporter = new IntervalReporter(report, options.progress(), options.hooks()::interval);
            ProgressLine line = progressLine(load.progress(), schedule.duration());
            ServerSamples[] base = new ServerSamples[1];
            RunListener listener = new RunListener() {
                @Override
                public void measuring() {
                    base[0] = server.sample();
                }

                @Override
                public void interval(Interval interval, double lengthS) {
                    reporter.emit(interval, lengthS, server.sample().total(), line);
                }
            };
            Measurement measurement = new LoadDriver(schedule, options.hooks(), options.progress()).run(load, listener);
            S summary = summarizer.summarize(measurement, server.summary(base[0]), report);
            if (report != null) {
                report.summary(summary);
            }
            options.hooks().finished(summary);
            return summary;
        }
    }

    /** How a load's intervals read on the progress line. */
    static ProgressLine progressLine(Progress progress, Duration duration) {
        if (progress instanceof Progress.Counted c) {
            return ProgressLine.counted(c.ended(), c.total());
        }
        if (progress instanceof Progress.Stream s) {
            return ProgressLine.stream(duration, s.badSoFar());
        }
        return ProgressLine.timed(duration, ((Progress.Timed) progress).lastConnectFailure());
    }
}
