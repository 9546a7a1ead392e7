package io.ricochet.loadgen.distributed;

import com.google.protobuf.ByteString;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.report.DistributedSummary;
import io.ricochet.loadgen.report.IntervalReporter;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.scenario.ScenarioFiles;
import io.ricochet.loadgen.scrape.ServerSamples;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs one scenario over many workers as one run, and writes the same report as a single process, plus
 * {@code workers.csv}. It is the run's coordinator: it launches the workers, holds them at a start barrier,
 * starts them together, and watches them until each is done or has failed. A worker that never connects,
 * dies or stops reporting is named, in the live output and the report; the others' results are kept.
 * The workers talk to its {@link CoordinationService}; their intervals become the run in its {@link RunMerger}.
 */
public final class Controller implements AutoCloseable {
    private static final long POLL_MILLIS = 100;

    private final ControllerSettings settings;
    private final WorkerRoster roster;
    private final RunMerger merger;
    private final CoordinationService service;
    private volatile boolean stopping;
    /** Why the run was stopped early for a lost worker, or null; the controller's thread writes it. */
    private String aborted;

    public Controller(ControllerSettings settings) {
        this.settings = settings;
        this.roster = new WorkerRoster(settings.workers(), settings.progress());
        this.merger = new RunMerger(settings, roster, intervalWindow(settings.interval()));
        this.service = new CoordinationService(settings, roster, merger);
    }

    /**
     * How many intervals ahead of the next to emit a report may be. A live worker gets ahead of a lagging
     * one by at most the overdue time (two intervals and a second) and a poll, before the merger moves on;
     * twice that, and never fewer than {@link IntervalMerger#DEFAULT_WINDOW}.
     */
    static int intervalWindow(Duration interval) {
        long lead = (interval.toNanos() * 2 + 1_000_000_000L + POLL_MILLIS * 1_000_000) / Math.max(1, interval.toNanos()) + 1;
        return (int) Math.min(Integer.MAX_VALUE, Math.max(IntervalMerger.DEFAULT_WINDOW, 2 * lead));
    }

    /** The coordination endpoint's bound address. */
    public InetSocketAddress address() {
        return service.address();
    }

    /** The address workers are told to connect to. */
    public InetSocketAddress advertised() {
        return InetSocketAddress.createUnresolved(settings.advertise(), address().getPort());
    }

    /** Stops the run from another thread (Ctrl-C): workers are told to stop and the run ends with what it has. */
    public void stop() {
        stopping = true;
        synchronized (roster) {
            for (WorkerStatus w : roster.all()) {
                if (w.connection != null && w.connection.isOpen()) {
                    w.connection.call(Coordination.STOP, ByteString.EMPTY, Duration.ofSeconds(5));
                }
            }
        }
    }

    /** Runs the scenario on {@code executor}'s workers to the end; the summary and each worker's state. */
    public DistributedSummary run(WorkerExecutor executor, String executorName) throws Exception {
        Map<String, Object> config = new LinkedHashMap<>(settings.config());
        config.put("workers", roster.size());
        config.put("executor", executorName);
        config.put("shards", settings.shards().stream().map(ScenarioFiles::tree).toList());
        long startMillis = System.currentTimeMillis();
        try (ReportWriter report = settings.reportDir() == null ? null
                : new ReportWriter(settings.reportDir(), config, startMillis)) {
            executor.launch(advertised(), settings.runSecret());
            settings.progress().println("controller: " + roster.size() + " workers launched (" + executorName
                    + "), coordination on " + address().getHostString() + ":" + address().getPort()
                    + ", advertised as " + settings.advertise() + ":" + address().getPort());
            ServerSamples base = merger.sampleServer();
            if (!awaitBarrier(executor)) {
                stop();
                settings.progress().println("controller: start barrier failed; no load was sent");
                return merger.finish(report, base, 0, executorName, service.refused(), null);
            }
            long start = System.nanoTime();
            synchronized (roster) {
                merger.start(start);
                for (WorkerStatus w : roster.all()) {
                    w.state = WorkerState.RUNNING;
                    w.lastReportNanos = start;
                    w.connection.call(Coordination.START, ByteString.EMPTY, Duration.ofSeconds(10));
                }
            }
            settings.progress().println("controller: all " + roster.size() + " workers ready; started");
            IntervalReporter reporter = new IntervalReporter(report, settings.progress(), settings.intervals());
            // The workers count nothing of their warmup: the server's baseline is taken again when it ends, as a
            // single run takes it, or the frames cross-check would hold the warmup's frames against none of them.
            long measuring = start + settings.warmup().toNanos();
            boolean rebased = settings.warmup().isZero();
            while (!roster.allTerminal()) {
                Thread.sleep(POLL_MILLIS);
                if (!rebased && System.nanoTime() >= measuring) {
                    base = merger.sampleServer();
                    rebased = true;
                }
                watch(executor);
                abortOnLoss();
                merger.emitIntervals(reporter, false);
            }
            // A loss that ended the last running worker ended the loop too: the run still says why it stopped.
            abortOnLoss();
            merger.emitIntervals(reporter, true);
            return merger.finish(report, base, (System.nanoTime() - start) / 1e9, executorName, service.refused(),
                    aborted);
        }
    }

    /**
     * Under {@link WorkerLoss#ABORT}, stops every worker once one is lost, naming it and why; the others' intervals so
     * far are merged and written as the run's.
     */
    private void abortOnLoss() {
        if (settings.onWorkerLoss() != WorkerLoss.ABORT || aborted != null) {
            return;
        }
        List<WorkerStatus> lost = roster.lost();
        if (lost.isEmpty()) {
            return;
        }
        WorkerStatus first = lost.get(0);
        aborted = "worker " + first.index + " lost: " + first.reason + " (--on-worker-loss abort)";
        roster.problem("run aborted: " + aborted);
        settings.progress().println("controller: " + aborted + "; stopping every worker");
        stop();
    }

    private boolean awaitBarrier(WorkerExecutor executor) throws InterruptedException {
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            watch(executor);
            synchronized (roster) {
                boolean allReady = true;
                for (WorkerStatus w : roster.all()) {
                    if (w.state == WorkerState.FAILED) {
                        return false;
                    }
                    allReady &= w.state == WorkerState.READY;
                }
                if (allReady) {
                    return true;
                }
            }
            if (stopping) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        synchronized (roster) {
            List<String> late = new ArrayList<>();
            for (WorkerStatus w : roster.all()) {
                if (w.state != WorkerState.READY) {
                    late.add(w.index + " (" + (w.state == WorkerState.PENDING ? "never connected" : w.state.name().toLowerCase(Locale.ROOT)) + ")");
                }
            }
            String message = "start barrier timed out after " + Durations.format(settings.startTimeout()) + ": worker"
                    + (late.size() > 1 ? "s " : " ") + String.join(", ", late) + " not ready";
            roster.problem(message);
            settings.progress().println("controller: " + message);
            for (WorkerStatus w : roster.all()) {
                if (w.state != WorkerState.READY) {
                    w.fail(w.state == WorkerState.PENDING ? "never connected" : "not ready at the start barrier");
                }
            }
        }
        return false;
    }

    /** How long {@code w} may be silent: before its first report, its warmup too. */
    private Duration silenceAllowed(WorkerStatus w) {
        return w.intervals == 0 ? settings.stallTimeout().plus(settings.warmup()) : settings.stallTimeout();
    }

    /** Marks workers that died (connection lost, executor says so) or went silent; says if calls were refused. */
    private void watch(WorkerExecutor executor) {
        Map<Integer, String> failed = executor.poll();
        long now = System.nanoTime();
        String news = service.refused().news(now, false);
        if (news != null) {
            settings.progress().println(news);
        }
        synchronized (roster) {
            failed.forEach((index, why) -> roster.fail(roster.get(index), why));
            for (WorkerStatus w : roster.all()) {
                if (w.state.terminal()) {
                    continue;
                }
                if (w.connection != null && !w.connection.isOpen()) {
                    roster.fail(w, "connection lost (the worker died or was killed)");
                } else if (w.state == WorkerState.RUNNING && now - w.lastReportNanos > silenceAllowed(w).toNanos()) {
                    roster.fail(w, "stopped reporting: nothing for " + Durations.format(silenceAllowed(w)));
                    if (w.connection != null) {
                        w.connection.close();
                    }
                }
            }
        }
    }

    /** Merged intervals not yet emitted; bounded by the merger's window. */
    int pendingIntervals() {
        return merger.pendingIntervals();
    }

    /** True if every worker ran to the end and exited cleanly. */
    public boolean allWorkersSucceeded() {
        return roster.allSucceeded();
    }

    @Override
    public void close() {
        service.close();
    }
}
