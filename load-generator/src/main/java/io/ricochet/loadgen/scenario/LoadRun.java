package io.ricochet.loadgen.scenario;

import io.ricochet.loadgen.report.IntervalData;
import io.ricochet.loadgen.report.IntervalReporter;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.ServerSummary;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.scrape.ServerWatch;
import io.ricochet.loadgen.scrape.ServerSample;
import io.ricochet.loadgen.stats.RunStats;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Drives one {@link EchoLoad} through warmup and measurement: every interval it swaps out the
 * latency histograms, samples the server and hands the interval to the {@link IntervalReporter}; at the end it
 * stops sending, waits for the replies still owed, and builds the summary.
 */
public final class LoadRun {
    private final LoadSpec spec;
    private final RunOptions options;
    private final java.util.function.Function<LoadSpec, Load> factory;
    private final ServerWatch server;

    public LoadRun(LoadSpec spec, RunOptions options) {
        this(spec, options, EchoLoad::new);
    }

    public LoadRun(LoadSpec spec, RunOptions options, java.util.function.Function<LoadSpec, Load> factory) {
        this.factory = factory;
        this.spec = spec;
        this.options = options;
        this.server = new ServerWatch(options.scrape());
    }

    public Summary run() throws InterruptedException {
        Histogram corrected = RunStats.newHistogram();
        Histogram service = RunStats.newHistogram();
        Histogram connect = RunStats.newHistogram();
        Histogram handshake = RunStats.newHistogram();
        try (Load load = factory.apply(spec)) {
            RunStats stats = load.stats();
            Map<String, Object> config = new LinkedHashMap<>(options.config());
            config.put("latency_kind", latencyKind());
            config.put("io", load.io().kind().label());
            config.put("send_tick_us", load.tickNanos() / 1000);
            long startMillis = System.currentTimeMillis();
            try (ReportWriter report = options.reportDir() == null ? null
                    : new ReportWriter(options.reportDir(), config, startMillis)) {
                IntervalReporter reporter = new IntervalReporter(report, options.progress(), options.hooks()::interval);
                ProgressLine line = ProgressLine.timed(spec.duration());
                // Without warmup the server baseline precedes the first request, so ok and frames.sent match exactly.
                if (!options.hooks().awaitStart()) {
                    throw new IllegalStateException("the controller called the run off before it started");
                }
                ServerSample serverBase = spec.warmup().isZero() ? sample() : null;
                load.start();
                long warmupEnd = System.nanoTime() + spec.warmup().toNanos();
                while (System.nanoTime() < warmupEnd) {
                    Thread.sleep(Math.min(spec.interval().toMillis(), Math.max(1, (warmupEnd - System.nanoTime()) / 1_000_000)));
                    warmupProgress((spec.warmup().toNanos() - (warmupEnd - System.nanoTime())) / 1e9, stats);
                }
                // Warmup traffic is not part of the result; without warmup everything since the start is.
                RunStats.Counts base = RunStats.Counts.ZERO;
                // Connects made during warmup belong to the run (a held-connection ramp is warmup): first interval.
                Histogram warmupConnect = RunStats.newHistogram();
                Histogram warmupHandshake = RunStats.newHistogram();
                if (!spec.warmup().isZero()) {
                    // Server first, client right after: the two baselines differ only by what completes in between.
                    serverBase = sample();
                    // Latency from warmup is dropped; connect times are kept (a held-connection ramp is warmup).
                    stats.drainInto(RunStats.newHistogram(), RunStats.newHistogram(), warmupConnect);
                    stats.drainHandshakesInto(warmupHandshake);
                    base = stats.counts();
                }
                long start = System.nanoTime();
                long startOfMeasurementMillis = System.currentTimeMillis();
                long end = start + spec.duration().toNanos();
                long next = start;
                RunStats.Counts previous = base;
                double previousElapsed = 0;
                Histogram interval = RunStats.newHistogram();
                Histogram intervalService = RunStats.newHistogram();
                Histogram intervalConnect = RunStats.newHistogram();
                Histogram intervalHandshake = RunStats.newHistogram();
                long previousHandshakeFailures = 0;
                long intervalIndex = 0;
                boolean done = false;
                while (!done) {
                    next += spec.interval().toNanos();
                    long wake = Math.min(next, end);
                    while (System.nanoTime() < wake && !finishedByLimit(load, stats, base)
                            && !options.hooks().stopRequested()) {
                        long pollMillis = spec.maxRequests() > 0 ? 1 : 50;
                        Thread.sleep(Math.max(1, Math.min(pollMillis, (wake - System.nanoTime()) / 1_000_000)));
                    }
                    done = System.nanoTime() >= end || finishedByLimit(load, stats, base)
                            || options.hooks().stopRequested();
                    if (done) {
                        load.stopSending();
                        load.drain(spec.timeout());
                    }
                    interval.reset();
                    intervalService.reset();
                    intervalConnect.reset();
                    intervalHandshake.reset();
                    stats.drainInto(interval, intervalService, intervalConnect);
                    stats.drainHandshakesInto(intervalHandshake);
                    if (intervalIndex == 0) {
                        intervalConnect.add(warmupConnect);
                        intervalHandshake.add(warmupHandshake);
                    }
                    connect.add(intervalConnect);
                    handshake.add(intervalHandshake);
                    long handshakeFailures = stats.handshakeFailures.sum();
                    corrected.add(interval);
                    service.add(intervalService);
                    RunStats.Counts now = stats.counts();
                    RunStats.Counts delta = now.minus(previous);
                    previous = now;
                    // The last interval is cut at the end or stretched by the drain: use its real length.
                    double elapsed = (System.nanoTime() - start) / 1e9;
                    double intervalSeconds = elapsed - previousElapsed;
                    // The reported latency: corrected in open loop, from the actual send in closed loop.
                    Histogram primary = spec.openLoop() ? interval : intervalService;
                    reporter.emit(new IntervalData(intervalIndex++, elapsed,
                            startOfMeasurementMillis + (long) (previousElapsed * 1000),
                            startOfMeasurementMillis + (long) (elapsed * 1000), stats.openConnections.get(), delta,
                            primary, spec.openLoop() ? intervalService : null, intervalConnect,
                            spec.handshakes() ? intervalHandshake : null, handshakeFailures - previousHandshakeFailures),
                            intervalSeconds, sample(), line);
                    previousHandshakeFailures = handshakeFailures;
                    previousElapsed = elapsed;
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                if (spec.maxRequests() > 0 && stats.lastReplyNanos.get() > stats.firstSendNanos.get()
                        && stats.firstSendNanos.get() > 0) {
                    seconds = (stats.lastReplyNanos.get() - stats.firstSendNanos.get()) / 1e9;
                }
                RunStats.Counts total = stats.counts().minus(base);
                Summary summary = summary(load, total, seconds, corrected, service, connect,
                        spec.handshakes() ? handshake : null, stats.handshakeFailures.sum(), stats.negotiated.get(),
                        serverBase);
                if (report != null) {
                    report.summary(summary);
                }
                options.hooks().finished(summary);
                return summary;
            }
        }
    }

    private boolean finishedByLimit(Load load, RunStats stats, RunStats.Counts base) {
        return load.requestLimitReached() && stats.counts().minus(base).completed() >= spec.maxRequests();
    }

    private String latencyKind() {
        return spec.openLoop() ? "corrected" : "closed_loop";
    }

    private ServerSample sample() {
        return server.sample();
    }

    private void warmupProgress(double elapsed, RunStats stats) {
        if (options.progress() != null) {
            options.progress().printf(Locale.ROOT, "[warmup %5.1fs] connections %d%n", elapsed, stats.openConnections.get());
        }
    }

    private Summary summary(Load load, RunStats.Counts total, double seconds, Histogram corrected,
            Histogram service, Histogram connect, Histogram handshake, long handshakeFailures, String negotiated,
            ServerSample serverBase) {
        String tlsSession = negotiated == null ? null : negotiated + " (" + spec.tls().provider() + " client)";
        ServerSummary server = this.server.summary(serverBase);
        Throwable failure = load.firstFailure();
        return new Summary(options.command(), spec.target().getHostString() + ":" + spec.target().getPort(),
                spec.protocol().tag(), load.io().kind().label(), total.completed(), spec.connections(), total.ok(),
                total.bad(), total.errors(), total.late(), total.connectFailures(), round(seconds),
                round(total.completed() / seconds), round(total.okBytes() / seconds),
                LatencySummary.of(spec.openLoop() ? corrected : service), latencyKind(),
                spec.openLoop() ? LatencySummary.of(service) : null, LatencySummary.of(connect),
                handshake == null ? null : LatencySummary.of(handshake), handshake == null ? null : handshakeFailures,
                tlsSession, server,
                failure == null ? null : failure.toString());
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
