package io.ricochet.loadgen.distributed;

import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.distributed.proto.WorkerSummary;
import io.ricochet.loadgen.engine.Latencies;
import io.ricochet.loadgen.engine.LoadFacts;
import io.ricochet.loadgen.engine.Measurement;
import io.ricochet.loadgen.report.DistributedSummary;
import io.ricochet.loadgen.report.IntervalReporter;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.report.Summaries;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.WorkerRow;
import io.ricochet.loadgen.scrape.ServerSample;
import io.ricochet.loadgen.scrape.ServerSamples;
import io.ricochet.loadgen.scrape.ServerWatch;
import io.ricochet.loadgen.stats.RunStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * Makes one run of the workers' intervals: merges each report into its interval and into the run's
 * histograms by adding them (so every percentile is exact), prints and writes the intervals as they
 * complete, and at the end sums the workers into the run's summary, its report and {@code workers.csv}.
 * It keeps the run's clock, so a report is placed by when it came as well as by the number it carries.
 */
final class RunMerger {
    private final ControllerSettings settings;
    private final WorkerRoster roster;
    private final IntervalMerger merger;
    private final ServerWatch server;
    private final Histogram latency = RunStats.newHistogram();
    private final Histogram service = RunStats.newHistogram();
    private final Histogram connect = RunStats.newHistogram();
    private final Histogram handshake = RunStats.newHistogram();
    /** When the workers were started; guarded by the roster's lock. */
    private long runStartNanos;

    /** @param window how many intervals ahead of the next to emit a report may be ({@link IntervalMerger}) */
    RunMerger(ControllerSettings settings, WorkerRoster roster, int window) {
        this.settings = settings;
        this.roster = roster;
        this.merger = new IntervalMerger(window);
        this.server = new ServerWatch(settings.scrape(), settings.progress());
    }

    /** A sample of the servers' metrics, the baseline the summary's server figures are counted from. */
    ServerSamples sampleServer() {
        return server.sample();
    }

    /** Starts the run's clock at {@code startNanos}; the caller holds the roster's lock. */
    void start(long startNanos) {
        runStartNanos = startNanos;
    }

    /**
     * Merges worker {@code w}'s report {@code r}, which came at {@code nowNanos}; the caller holds the roster's
     * lock. The whole report is checked and its histograms decoded before any of it is merged.
     *
     * @throws IllegalArgumentException if the report is not one a worker could send, saying why
     */
    void add(IntervalReport r, long nowNanos, WorkerStatus w) {
        merger.advanceClock((nowNanos - runStartNanos) / settings.interval().toNanos());
        merger.add(r, nowNanos, w.latency, latency, service, connect, handshake);
    }

    /** Merged intervals not yet emitted; bounded by the merger's window. */
    int pendingIntervals() {
        synchronized (roster) {
            return merger.pendingIntervals();
        }
    }

    /**
     * Prints and writes the intervals that are complete ({@code flush}: all that are left). They are taken
     * under the lock; the scrape and the output happen outside it, so the RPC event loop delivering reports
     * never waits on HTTP or disk.
     */
    void emitIntervals(IntervalReporter reporter, boolean flush) {
        List<IntervalMerger.Merged> complete = new ArrayList<>();
        boolean handshakes;
        synchronized (roster) {
            handshakes = merger.timesHandshakes();
            Set<Integer> running = roster.running();
            long overdue = settings.interval().toNanos() * 2 + 1_000_000_000L;
            IntervalMerger.Merged m;
            while ((m = merger.poll(running, System.nanoTime(), overdue, flush)) != null) {
                complete.add(m);
            }
        }
        // One scrape for however many intervals are complete: a scrape per interval let a slow server fall
        // further behind each round.
        ServerSample now = complete.isEmpty() ? null : server.sample().total();
        for (IntervalMerger.Merged m : complete) {
            reporter.emit(m.toInterval(handshakes), (m.endMillis - m.startMillis) / 1000.0, now,
                    ProgressLine.merged(m.reporters.size(), roster.size()));
        }
    }

    /**
     * The merged run: the workers' counts and histograms summed, the servers' figures since {@code base}, each
     * worker's row and the run's problems (its refused calls too); written to {@code report} if there is one.
     */
    DistributedSummary finish(ReportWriter report, ServerSamples base, double elapsed, String executorName,
            RefusedInputs refused, String aborted) {
        synchronized (roster) {
            ReportedCounts total = new ReportedCounts();
            long early = 0;
            long quicConnections = 0;
            boolean earlyCounted = false;
            int connections = 0;
            double duration = 0;
            WorkerSummary first = null;
            String firstError = null;
            String firstBad = null;
            List<WorkerRow> rows = new ArrayList<>();
            for (WorkerStatus w : roster.all()) {
                total.add(w.counts);
                if (w.summary != null) {
                    first = first == null ? w.summary : first;
                    connections += w.summary.getConnections();
                    earlyCounted |= w.summary.getEarlyDataCounted();
                    early += w.summary.getEarlyData();
                    quicConnections += w.summary.getQuicConnections();
                    duration = Math.max(duration, w.summary.getDurationS());
                    if (firstError == null && !w.summary.getFirstError().isEmpty()) {
                        firstError = "worker " + w.index + ": " + WorkerRoster.clipError(w.summary.getFirstError());
                    }
                    if (firstBad == null && !w.summary.getFirstBad().isEmpty()) {
                        firstBad = "worker " + w.index + ": " + WorkerRoster.clipError(w.summary.getFirstBad());
                    }
                }
                if (firstError == null && w.state == WorkerState.FAILED) {
                    firstError = "worker " + w.index + ": " + w.reason;
                }
                rows.add(new WorkerRow(w.index, w.state.name(), w.host, w.completed(), w.counts.ok, w.counts.bad,
                        w.counts.errors, w.intervals,
                        w.latency.getTotalCount() == 0 ? 0 : w.latency.getValueAtPercentile(99), w.exitCode, w.reason,
                        w.lostAtNanos == 0 ? null : Math.round((w.lostAtNanos - runStartNanos) / 1e8) / 10.0));
            }
            if (duration == 0) {
                duration = Math.max(elapsed, 1e-3);
            }
            String kind = first == null ? "closed_loop" : first.getLatencyKind();
            boolean open = kind.equals("corrected");
            // Workers over TLS or Noise say so in their summaries: then the merged one has a handshake histogram too.
            boolean tls = first != null && first.getHandshakes();
            // The merged latency is the reported one: corrected in open loop, the service time in closed loop.
            Latencies latencies = new Latencies(open ? latency : RunStats.newHistogram(), open ? service : latency,
                    connect, handshake);
            LoadFacts facts = new LoadFacts(first == null ? "-" : first.getIo(), kind,
                    first == null || first.getTlsSession().isEmpty() ? null : first.getTlsSession(),
                    earlyCounted ? new LoadFacts.EarlyData(early, quicConnections) : null, firstError, firstBad, 0,
                    Map.of(), List.of());
            Measurement measured = new Measurement(total.toCounts(total.ok + total.bad + total.errors, 0), duration,
                    duration, latencies, total.handshakeFailures, facts);
            Summary merged = Summaries.frames(settings.command(), settings.target(),
                    first == null ? "-" : first.getTransport(), connections, measured, tls, server.summary(base));
            String news = refused.news(System.nanoTime(), true);
            if (news != null) {
                settings.progress().println(news);
            }
            List<String> allProblems = new ArrayList<>(roster.problems());
            allProblems.addAll(refused.problems());
            DistributedSummary summary = new DistributedSummary(merged, roster.size(), executorName, rows,
                    List.copyOf(allProblems), refused.total(), roster.lost().size(), settings.onWorkerLoss().label(),
                    aborted);
            if (report != null) {
                List<RunMetadata.Worker> machines = new ArrayList<>();
                for (WorkerStatus w : roster.all()) {
                    machines.add(w.machine != null ? w.machine : new RunMetadata.Worker(w.index, null, null));
                }
                // The same summary the controller prints: the merged run's keys, the workers' rows beside them.
                report.summary(summary, machines);
                report.csv("workers.csv", WorkerRow.COLUMNS, rows);
            }
            return summary;
        }
    }
}
