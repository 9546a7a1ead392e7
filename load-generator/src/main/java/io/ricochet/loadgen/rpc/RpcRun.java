package io.ricochet.loadgen.rpc;

import io.ricochet.loadgen.report.ClientRow;
import io.ricochet.loadgen.report.IntervalReporter;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.IntervalData;
import io.ricochet.loadgen.scenario.RunOptions;
import io.ricochet.loadgen.scrape.ServerSample;
import io.ricochet.loadgen.scrape.ServerWatch;
import io.ricochet.loadgen.stats.RunStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;

/**
 * Drives an {@link RpcWorkload} to its end: every interval it swaps out the latency histogram, prints
 * a progress line, writes the interval to the report and samples the server; then it builds the
 * summary in nbagent's columns. Total time runs from the first call to the last answer.
 */
public final class RpcRun {
    private final RpcBenchSpec spec;
    private final RunOptions options;
    private final ServerWatch server;
    private final long intervalMillis;

    public RpcRun(RpcBenchSpec spec, RunOptions options, java.time.Duration interval) {
        this.spec = spec;
        this.options = options;
        this.intervalMillis = Math.max(1, interval.toMillis());
        this.server = new ServerWatch(options.scrape());
    }

    public RpcSummary run(RpcWorkload workload) throws InterruptedException {
        workload.connect();
        if (!options.hooks().awaitStart()) {
            throw new IllegalStateException("the controller called the run off before it started");
        }
        Map<String, Object> config = new LinkedHashMap<>(options.config());
        config.put("latency_kind", "closed_loop");
        config.put("io", workload.io());
        long startMillis = System.currentTimeMillis();
        try (ReportWriter report = options.reportDir() == null ? null
                : new ReportWriter(options.reportDir(), config, startMillis)) {
            IntervalReporter reporter = new IntervalReporter(report, options.progress(), options.hooks()::interval);
            ProgressLine line = ProgressLine.counted(workload.counters()::received, workload.total());
            ServerSample base = server.sample();
            Histogram total = RunStats.newHistogram();
            long start = System.nanoTime();
            CompletableFuture<Void> done = workload.start();
            RpcWorkload.Counters counters = workload.counters();
            long previousOk = 0;
            long previousBad = 0;
            long previousErrors = 0;
            double previousElapsed = 0;
            long intervalIndex = 0;
            boolean finished = false;
            while (!finished) {
                // A stop from the controller ends the run with what has ended so far.
                finished = awaitInterval(done) || options.hooks().stopRequested();
                Histogram interval = workload.latency().getIntervalHistogram();
                total.add(interval);
                long ok = counters.ok.sum();
                long bad = counters.bad.sum();
                long errors = counters.errors.sum();
                double elapsed = (System.nanoTime() - start) / 1e9;
                long ended = ok - previousOk + bad - previousBad + errors - previousErrors;
                reporter.emit(new IntervalData(intervalIndex++, elapsed, startMillis + (long) (previousElapsed * 1000),
                        startMillis + (long) (elapsed * 1000), spec.clients(),
                        new RunStats.Counts(ended, ok - previousOk, bad - previousBad, errors - previousErrors, 0, 0, 0, 0),
                        interval, null, null, null, 0), elapsed - previousElapsed, server.sample(), line);
                previousOk = ok;
                previousBad = bad;
                previousErrors = errors;
                previousElapsed = elapsed;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long received = counters.received();
            List<ClientRow> clients = workload.clients(seconds);
            RpcSummary summary = new RpcSummary(options.command(), spec.target().getHostString() + ":"
                    + spec.target().getPort(), workload.io(), workload.total(), spec.clients(), spec.inFlight(), received,
                    counters.ok.sum(), counters.bad.sum(), counters.errors.sum(), round(seconds),
                    round(counters.ok.sum() / seconds), LatencySummary.of(total), workload.steps(), clients,
                    server.summary(base), workload.firstError());
            if (report != null) {
                report.summary(summary);
                if (!clients.isEmpty()) {
                    report.csv("clients.csv", ClientRow.CSV_HEADER, clients.stream().map(ClientRow::csv).toList());
                }
            }
            options.hooks().finished(summary);
            return summary;
        }
    }

    /** Waits one interval for the end; true if the work has ended. */
    private boolean awaitInterval(CompletableFuture<Void> done) throws InterruptedException {
        try {
            done.get(intervalMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            // Each unit's failure is counted where it happens; the future itself only says "over".
            return true;
        }
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
