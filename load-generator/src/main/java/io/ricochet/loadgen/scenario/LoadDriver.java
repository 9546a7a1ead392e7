package io.ricochet.loadgen.scenario;

import io.ricochet.loadgen.report.IntervalData;
import io.ricochet.loadgen.report.IntervalReporter;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.scrape.ServerSamples;
import io.ricochet.loadgen.scrape.ServerWatch;
import io.ricochet.loadgen.stats.RunStats;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The one loop that measures every kind of {@link Load}: it waits for the controller's start signal, runs the
 * uncounted warmup, then every interval takes the load's counts and latencies, samples the server and hands the
 * interval to the {@link IntervalReporter}; when the duration is over, the load has finished its work or the controller
 * says stop, it stops sending and drains what is owed. The load's own summary is built from the {@link Measurement},
 * whose totals are exactly the sum of the intervals reported.
 */
public final class LoadDriver {
    /** How often a stop from the controller is looked for. */
    private static final long STOP_POLL_NANOS = 50_000_000;

    private final RunOptions options;
    private final Schedule schedule;
    private final ServerWatch server;

    public LoadDriver(RunOptions options, Schedule schedule) {
        this.options = options;
        this.schedule = schedule;
        this.server = new ServerWatch(options.scrape(), options.progress() != null ? options.progress() : System.err);
    }

    /** Builds a load's summary from what was measured. */
    @FunctionalInterface
    public interface Summarizer<S> {
        /** @param report the report directory's writer, for files of the load's own; null without a report */
        S summarize(Measurement measurement, ReportWriter report);
    }

    /** Measures {@code load} (which the caller closes) and returns its summary, already written and handed over. */
    public <S> S run(Load load, Summarizer<S> summarizer) throws InterruptedException {
        load.prepare();
        Map<String, Object> config = new LinkedHashMap<>(options.config());
        load.describe(config);
        try (ReportWriter report = options.reportDir() == null ? null
                : new ReportWriter(options.reportDir(), config, System.currentTimeMillis())) {
            IntervalReporter reporter = new IntervalReporter(report, options.progress(), options.hooks()::interval);
            ProgressLine line = load.progressLine(schedule);
            if (!options.hooks().awaitStart()) {
                throw new IllegalStateException("the controller called the run off before it started");
            }
            boolean warmup = !schedule.warmup().isZero();
            // Without warmup the server baseline precedes the first request, so ok and frames.sent match exactly.
            ServerSamples serverBase = warmup ? null : server.sample();
            load.start();
            // Latency from warmup is dropped; connect and handshake times are kept (a held-connection ramp is warmup).
            Latencies fromWarmup = Latencies.empty();
            RunStats.Counts base = RunStats.Counts.ZERO;
            if (warmup) {
                warmUp(load);
                // Server first, client right after: the two baselines differ only by what completes in between.
                serverBase = server.sample();
                load.drainLatencies(fromWarmup);
                base = load.counts();
            }
            long start = System.nanoTime();
            long startMillis = System.currentTimeMillis();
            long end = schedule.duration() == null ? Long.MAX_VALUE : start + schedule.duration().toNanos();
            long intervalNanos = schedule.interval().toNanos();
            long next = start;
            RunStats.Counts previous = base;
            double previousElapsed = 0;
            double sendingSeconds = 0;
            long previousHandshakeFailures = 0;
            Latencies interval = Latencies.empty();
            Latencies total = Latencies.empty();
            long index = 0;
            boolean done = false;
            while (!done) {
                next += intervalNanos;
                done = awaitInterval(load, Math.min(next, end), end);
                if (done) {
                    String futile = load.futile();
                    if (futile != null && options.progress() != null) {
                        options.progress().println("stopping early: " + futile + " (the summary's first error says why)");
                    }
                    load.stopSending();
                    sendingSeconds = (System.nanoTime() - start) / 1e9;
                    load.drain(schedule.drain());
                }
                interval.reset();
                load.drainLatencies(interval);
                if (index == 0) {
                    interval.connect().add(fromWarmup.connect());
                    interval.handshake().add(fromWarmup.handshake());
                }
                total.add(interval);
                long handshakeFailures = load.handshakeFailures();
                RunStats.Counts now = load.counts();
                // The last interval is cut at the end or stretched by the drain: use its real length.
                double elapsed = (System.nanoTime() - start) / 1e9;
                // The reported latency: corrected in open loop, from the actual send in closed loop.
                Histogram latency = load.openLoop() ? interval.corrected() : interval.service();
                reporter.emit(new IntervalData(index++, elapsed, startMillis + (long) (previousElapsed * 1000),
                        startMillis + (long) (elapsed * 1000), load.openConnections(), now.minus(previous), latency,
                        load.openLoop() ? interval.service() : null, load.timesConnects() ? interval.connect() : null,
                        load.timesHandshakes() ? interval.handshake() : null,
                        handshakeFailures - previousHandshakeFailures), elapsed - previousElapsed, server.sample().total(), line);
                previous = now;
                previousHandshakeFailures = handshakeFailures;
                previousElapsed = elapsed;
            }
            // The totals of the last interval's end, so the intervals add up to the summary exactly.
            Measurement measurement = new Measurement(previous.minus(base), previousElapsed, sendingSeconds, total,
                    previousHandshakeFailures, server.summary(serverBase));
            S summary = summarizer.summarize(measurement, report);
            if (report != null) {
                report.summary(summary);
            }
            options.hooks().finished(summary);
            return summary;
        }
    }

    private void warmUp(Load load) throws InterruptedException {
        long warmupNanos = schedule.warmup().toNanos();
        long warmupEnd = System.nanoTime() + warmupNanos;
        while (System.nanoTime() < warmupEnd && !options.hooks().stopRequested()) {
            Thread.sleep(Math.min(schedule.interval().toMillis(),
                    Math.max(1, (warmupEnd - System.nanoTime()) / 1_000_000)));
            if (options.progress() != null) {
                options.progress().printf(Locale.ROOT, "[warmup %5.1fs] connections %d%n",
                        (warmupNanos - (warmupEnd - System.nanoTime())) / 1e9, load.openConnections());
            }
        }
    }

    /** Waits until {@code wake}; true when the run is over: its end has come, its work is done, or a stop was asked. */
    private boolean awaitInterval(Load load, long wake, long end) throws InterruptedException {
        long left;
        while ((left = wake - System.nanoTime()) > 0 && !options.hooks().stopRequested()) {
            if (load.awaitFinished(Math.min(left, STOP_POLL_NANOS)) || load.futile() != null) {
                return true;
            }
        }
        return System.nanoTime() >= end || load.finished() || load.futile() != null
                || options.hooks().stopRequested();
    }
}
