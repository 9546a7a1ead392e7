package io.ricochet.loadgen.distributed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Empty;
import com.google.protobuf.MessageLite;
import io.ricochet.config.Durations;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.distributed.proto.Assignment;
import io.ricochet.loadgen.distributed.proto.Done;
import io.ricochet.loadgen.distributed.proto.Hello;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.distributed.proto.WorkerSummary;
import io.ricochet.loadgen.distributed.proto.Ready;
import io.ricochet.loadgen.report.DistributedSummary;
import io.ricochet.loadgen.report.IntervalReporter;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.Summaries;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.engine.Latencies;
import io.ricochet.loadgen.engine.LoadFacts;
import io.ricochet.loadgen.engine.Measurement;
import io.ricochet.loadgen.report.WorkerRow;
import io.ricochet.loadgen.scrape.ServerSample;
import io.ricochet.loadgen.scrape.ServerSamples;
import io.ricochet.loadgen.scrape.ServerWatch;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.MethodDescriptor;
import io.ricochet.rpc.RpcAuthenticator;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcConnection;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcServer;
import io.ricochet.rpc.RpcStatus;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.HdrHistogram.Histogram;

/**
 * Runs one scenario over many workers as one run. It serves the coordination endpoint (the framework's
 * RPC), hands each worker its shard, holds them at a start barrier, starts them together, merges the
 * interval histograms they stream by adding them, and writes the same report as a single process,
 * plus {@code workers.csv}. A worker that never connects, dies or stops reporting is named, in the
 * live output and the report; the others' results are kept.
 */
public final class Controller implements AutoCloseable {
    private static final long POLL_MILLIS = 100;
    /** Longest host name a worker may give (a DNS name's). */
    static final int MAX_HOST_CHARS = 253;
    /** The most of a worker's error message that is kept. */
    static final int MAX_ERROR_CHARS = 1000;

    private final ControllerSettings settings;
    private final WorkerStatus[] workers;
    private final IntervalMerger merger;
    private final RefusedInputs refused = new RefusedInputs(Duration.ofSeconds(1));
    private final Histogram latency = RunStats.newHistogram();
    private final Histogram service = RunStats.newHistogram();
    private final Histogram connect = RunStats.newHistogram();
    private final Histogram handshake = RunStats.newHistogram();
    private final List<String> problems = new ArrayList<>();
    private final ServerWatch server;
    private final RpcServer endpoint;
    private volatile boolean stopping;
    /** When the workers were started; guarded by this. */
    private long runStartNanos;

    public Controller(ControllerSettings settings) {
        this.settings = settings;
        this.workers = new WorkerStatus[settings.workers()];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new WorkerStatus(i);
        }
        this.merger = new IntervalMerger(intervalWindow(settings.interval()));
        this.server = new ServerWatch(settings.scrape(), settings.progress());
        RpcDispatcher methods = new RpcDispatcher();
        methods.register(Coordination.HELLO, counted(Coordination.HELLO_METHOD, this::hello));
        methods.register(Coordination.READY, counted(Coordination.READY_METHOD, this::ready));
        methods.register(Coordination.REPORT, counted(Coordination.REPORT_METHOD, this::report));
        methods.register(Coordination.DONE, counted(Coordination.DONE_METHOD, this::done));
        // Room for every worker and a few more, and no longer idle than a worker may be (at the start barrier, or
        // between reports): each connection may hold a partial report, so strangers must not pile up.
        Duration idle = max(settings.startTimeout(), settings.stallTimeout().plus(settings.warmup())).plusMinutes(1);
        this.endpoint = RpcServer.builder().config(ServerConfig.builder().host(settings.bindHost()).tcpPort(settings.port())
                .ioThreads(1).transport(TransportKind.AUTO).idleTimeout(idle).maxConnections(2 * workers.length + 16).build())
                .rpc(RpcConfig.builder().maxPayload(Coordination.MAX_PAYLOAD).build()).dispatcher(methods).name("coordination")
                .authenticator(new RunAuthenticator(settings.runSecret(), refused)).build().startAndAwait();
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

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The coordination endpoint's bound address. */
    public InetSocketAddress address() {
        return endpoint.address();
    }

    /** The address workers are told to connect to. */
    public InetSocketAddress advertised() {
        return InetSocketAddress.createUnresolved(settings.advertise(), address().getPort());
    }

    /**
     * The typed {@code method}, each call it refuses (a payload that is not its message included) counted,
     * with its reason, for the run's problems and exit status.
     */
    private <Req extends MessageLite, Resp extends MessageLite> RpcHandler counted(MethodDescriptor<Req, Resp> method,
            BiFunction<Req, RpcConnection, Resp> action) {
        return request -> {
            try {
                Req message = method.parseRequest(request.payload());
                return CompletableFuture.completedFuture(action.apply(message, request.caller()).toByteString());
            } catch (RpcException e) {
                refused.record(method.name(), e.detail());
                throw e;
            }
        };
    }

    private static RpcException invalid(String message) {
        return new RpcException(RpcStatus.INVALID_ARGUMENT, message);
    }

    private synchronized Assignment hello(Hello hello, RpcConnection from) {
        WorkerStatus w = worker(hello.getIndex());
        for (WorkerStatus other : workers) {
            // One index per connection: every later call is checked against the connection that said hello.
            if (other.connection == from) {
                throw invalid("worker " + w.index + ": hello from the connection that already said hello as worker "
                        + other.index + " (expected: one worker per connection)");
            }
        }
        if (w.state != WorkerState.PENDING) {
            throw new RpcException(RpcStatus.ALREADY_EXISTS, "worker " + w.index + " is already " + w.state);
        }
        if (hello.getHost().length() > MAX_HOST_CHARS) {
            throw invalid("worker " + w.index + ": host: " + hello.getHost().length() + " characters (expected: <= "
                    + MAX_HOST_CHARS + ")");
        }
        w.state = WorkerState.CONNECTED;
        w.host = hello.getHost() + "/" + hello.getPid();
        w.connection = from;
        return Assignment.newBuilder().setIndex(w.index).setWorkers(workers.length)
                .addAllArgs(settings.shards().get(w.index)).setStartTimeoutMillis(settings.startTimeout().toMillis())
                .build();
    }

    private synchronized Empty ready(Ready ready, RpcConnection from) {
        WorkerStatus w = caller(ready.getIndex(), from, "ready");
        if (w.state == WorkerState.CONNECTED) {
            w.state = WorkerState.READY;
        }
        return Empty.getDefaultInstance();
    }

    private synchronized Empty report(IntervalReport r, RpcConnection from) {
        WorkerStatus w = caller(r.getIndex(), from, "report");
        if (w.state != WorkerState.RUNNING) {
            throw invalid("worker " + w.index + ": report while " + w.state + " (expected: RUNNING)");
        }
        if (r.getInterval() <= w.lastInterval) {
            throw invalid("worker " + w.index + ": interval: " + r.getInterval() + " (expected: > " + w.lastInterval
                    + ", its last)");
        }
        long now = System.nanoTime();
        merger.advanceClock((now - runStartNanos) / settings.interval().toNanos());
        try {
            // Checks the whole report and decodes its histograms before it merges any of it.
            merger.add(r, now, w.latency, latency, service, connect, handshake);
        } catch (IllegalArgumentException e) {
            throw invalid("worker " + w.index + ": " + e.getMessage());
        }
        w.lastInterval = r.getInterval();
        w.lastReportNanos = now;
        w.intervals++;
        w.ok += r.getOk();
        w.bad += r.getBad();
        w.errors += r.getErrors();
        w.late += r.getLate();
        w.unexpected += r.getUnexpected();
        w.okBytes += r.getOkBytes();
        w.connects += r.getConnects();
        w.connectFailures += r.getConnectFailures();
        w.handshakeFailures += r.getHandshakeFailures();
        w.openConnections = r.getOpenConnections();
        return Empty.getDefaultInstance();
    }

    private synchronized Empty done(Done done, RpcConnection from) {
        WorkerStatus w = caller(done.getIndex(), from, "done");
        if (w.state == WorkerState.DONE) {
            throw invalid("worker " + w.index + ": done again (expected: once)");
        }
        if (done.getExitCode() < 0 || done.getExitCode() > 255) {
            throw invalid("worker " + w.index + ": exit_code: " + done.getExitCode() + " (expected: 0..255)");
        }
        WorkerSummary summary = null;
        if (done.hasSummary()) {
            summary = done.getSummary();
        } else if (!done.getSummaryJson().isEmpty()) {
            // A worker built before the typed summary.
            JsonNode json;
            try {
                json = ReportWriter.JSON.readTree(done.getSummaryJson());
            } catch (JsonProcessingException e) {
                throw invalid("worker " + w.index + ": summary_json: " + e.getOriginalMessage());
            }
            if (!json.isObject()) {
                throw invalid("worker " + w.index + ": summary_json: a " + json.getNodeType() + " (expected: an OBJECT)");
            }
            summary = WorkerSummaries.fromJson(json);
        }
        String wrong = summary == null ? null : WorkerSummaries.problem(summary);
        if (wrong != null) {
            throw invalid("worker " + w.index + ": summary: " + wrong);
        }
        String error = clipError(done.getError());
        w.exitCode = done.getExitCode();
        w.summary = summary;
        if (w.summary == null) {
            fail(w, "did not run: " + error);
        } else {
            w.state = WorkerState.DONE;
            if (!error.isEmpty()) {
                w.reason = error;
            }
        }
        return Empty.getDefaultInstance();
    }

    private WorkerStatus worker(int index) {
        if (index < 0 || index >= workers.length) {
            throw invalid("worker index " + index + " (expected: 0.." + (workers.length - 1) + ")");
        }
        return workers[index];
    }

    /** Worker {@code index}, if {@code from} is the connection that said hello as it; else the call is refused. */
    private WorkerStatus caller(int index, RpcConnection from, String what) {
        WorkerStatus w = worker(index);
        if (w.connection != from) {
            throw invalid("worker " + index + ": " + what + " from a connection that did not say hello as worker " + index);
        }
        return w;
    }

    private void fail(WorkerStatus w, String why) {
        if (!w.state.terminal()) {
            w.fail(why);
            String line = "worker " + w.index + " FAILED: " + why;
            problems.add(line);
            settings.progress().println(line);
        }
    }

    /** Stops the run from another thread (Ctrl-C): workers are told to stop and the run ends with what it has. */
    public void stop() {
        stopping = true;
        synchronized (this) {
            for (WorkerStatus w : workers) {
                if (w.connection != null && w.connection.isOpen()) {
                    w.connection.call(Coordination.STOP, ByteString.EMPTY, Duration.ofSeconds(5));
                }
            }
        }
    }

    /** Runs the scenario on {@code executor}'s workers to the end; the summary and each worker's state. */
    public DistributedSummary run(WorkerExecutor executor, String executorName) throws Exception {
        Map<String, Object> config = new LinkedHashMap<>(settings.config());
        config.put("workers", workers.length);
        config.put("executor", executorName);
        config.put("shards", settings.shards());
        long startMillis = System.currentTimeMillis();
        try (ReportWriter report = settings.reportDir() == null ? null
                : new ReportWriter(settings.reportDir(), config, startMillis)) {
            executor.launch(advertised(), settings.runSecret());
            settings.progress().println("controller: " + workers.length + " workers launched (" + executorName
                    + "), coordination on " + address().getHostString() + ":" + address().getPort()
                    + ", advertised as " + settings.advertise() + ":" + address().getPort());
            ServerSamples base = server.sample();
            if (!awaitBarrier(executor)) {
                stop();
                settings.progress().println("controller: start barrier failed; no load was sent");
                return finish(report, base, 0, executorName);
            }
            long start = System.nanoTime();
            synchronized (this) {
                runStartNanos = start;
                for (WorkerStatus w : workers) {
                    w.state = WorkerState.RUNNING;
                    w.lastReportNanos = start;
                    w.connection.call(Coordination.START, ByteString.EMPTY, Duration.ofSeconds(10));
                }
            }
            settings.progress().println("controller: all " + workers.length + " workers ready; started");
            IntervalReporter reporter = new IntervalReporter(report, settings.progress(), settings.intervals());
            // The workers count nothing of their warmup: the server's baseline is taken again when it ends, as a
            // single run takes it, or the frames cross-check would hold the warmup's frames against none of them.
            long measuring = start + settings.warmup().toNanos();
            boolean rebased = settings.warmup().isZero();
            while (!allTerminal()) {
                Thread.sleep(POLL_MILLIS);
                if (!rebased && System.nanoTime() >= measuring) {
                    base = server.sample();
                    rebased = true;
                }
                watch(executor);
                emitIntervals(reporter, false);
            }
            emitIntervals(reporter, true);
            return finish(report, base, (System.nanoTime() - start) / 1e9, executorName);
        }
    }

    private boolean awaitBarrier(WorkerExecutor executor) throws InterruptedException {
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            watch(executor);
            synchronized (this) {
                boolean allReady = true;
                for (WorkerStatus w : workers) {
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
        synchronized (this) {
            List<String> late = new ArrayList<>();
            for (WorkerStatus w : workers) {
                if (w.state != WorkerState.READY) {
                    late.add(w.index + " (" + (w.state == WorkerState.PENDING ? "never connected" : w.state.name().toLowerCase(Locale.ROOT)) + ")");
                }
            }
            String message = "start barrier timed out after " + Durations.format(settings.startTimeout()) + ": worker"
                    + (late.size() > 1 ? "s " : " ") + String.join(", ", late) + " not ready";
            problems.add(message);
            settings.progress().println("controller: " + message);
            for (WorkerStatus w : workers) {
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
        String news = refused.news(now, false);
        if (news != null) {
            settings.progress().println(news);
        }
        synchronized (this) {
            failed.forEach((index, why) -> fail(workers[index], why));
            for (WorkerStatus w : workers) {
                if (w.state.terminal()) {
                    continue;
                }
                if (w.connection != null && !w.connection.isOpen()) {
                    fail(w, "connection lost (the worker died or was killed)");
                } else if (w.state == WorkerState.RUNNING && now - w.lastReportNanos > silenceAllowed(w).toNanos()) {
                    fail(w, "stopped reporting: nothing for " + Durations.format(silenceAllowed(w)));
                    if (w.connection != null) {
                        w.connection.close();
                    }
                }
            }
        }
    }

    private synchronized boolean allTerminal() {
        for (WorkerStatus w : workers) {
            if (!w.state.terminal()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Prints and writes the intervals that are complete. They are taken under the lock; the scrape and
     * the output happen outside it, so the RPC event loop delivering reports never waits on HTTP or disk.
     */
    private void emitIntervals(IntervalReporter reporter, boolean flush) {
        List<IntervalMerger.Merged> complete = new ArrayList<>();
        boolean handshakes;
        synchronized (this) {
            handshakes = merger.timesHandshakes();
            Set<Integer> running = new HashSet<>();
            for (WorkerStatus w : workers) {
                if (w.state == WorkerState.RUNNING) {
                    running.add(w.index);
                }
            }
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
                    ProgressLine.merged(m.reporters.size(), workers.length));
        }
    }

    private synchronized DistributedSummary finish(ReportWriter report, ServerSamples base, double elapsed,
            String executorName) {
        long ok = 0;
        long bad = 0;
        long errors = 0;
        long late = 0;
        long unexpected = 0;
        long okBytes = 0;
        long connectFailures = 0;
        long handshakeFailures = 0;
        long early = 0;
        long quicConnections = 0;
        boolean earlyCounted = false;
        int connections = 0;
        double duration = 0;
        WorkerSummary first = null;
        String firstError = null;
        String firstBad = null;
        List<WorkerRow> rows = new ArrayList<>();
        for (WorkerStatus w : workers) {
            ok += w.ok;
            bad += w.bad;
            errors += w.errors;
            late += w.late;
            unexpected += w.unexpected;
            okBytes += w.okBytes;
            connectFailures += w.connectFailures;
            handshakeFailures += w.handshakeFailures;
            if (w.summary != null) {
                first = first == null ? w.summary : first;
                connections += w.summary.getConnections();
                earlyCounted |= w.summary.getEarlyDataCounted();
                early += w.summary.getEarlyData();
                quicConnections += w.summary.getQuicConnections();
                duration = Math.max(duration, w.summary.getDurationS());
                if (firstError == null && !w.summary.getFirstError().isEmpty()) {
                    firstError = "worker " + w.index + ": " + clipError(w.summary.getFirstError());
                }
                if (firstBad == null && !w.summary.getFirstBad().isEmpty()) {
                    firstBad = "worker " + w.index + ": " + clipError(w.summary.getFirstBad());
                }
            }
            if (firstError == null && w.state == WorkerState.FAILED) {
                firstError = "worker " + w.index + ": " + w.reason;
            }
            rows.add(new WorkerRow(w.index, w.state.name(), w.host, w.completed(), w.ok, w.bad, w.errors, w.intervals,
                    w.latency.getTotalCount() == 0 ? 0 : w.latency.getValueAtPercentile(99), w.exitCode, w.reason));
        }
        if (duration == 0) {
            duration = Math.max(elapsed, 1e-3);
        }
        String kind = first == null ? "closed_loop" : first.getLatencyKind();
        boolean open = kind.equals("corrected");
        // Workers over TLS or Noise say so in their summaries: then the merged one has a handshake histogram too.
        boolean tls = first != null && first.getHandshakes();
        // The merged latency is the reported one: corrected in open loop, the service time in closed loop.
        Latencies latencies = new Latencies(open ? latency : RunStats.newHistogram(), open ? service : latency, connect,
                handshake);
        LoadFacts facts = new LoadFacts(first == null ? "-" : first.getIo(), kind,
                first == null || first.getTlsSession().isEmpty() ? null : first.getTlsSession(),
                earlyCounted ? new LoadFacts.EarlyData(early, quicConnections) : null, firstError, firstBad, 0,
                Map.of(), List.of());
        Measurement measured = new Measurement(new RunStats.Counts(ok + bad + errors, ok, bad, errors, late, unexpected,
                okBytes, 0, connectFailures), duration, duration, latencies, handshakeFailures, facts);
        Summary merged = Summaries.frames(settings.command(), settings.target(),
                first == null ? "-" : first.getTransport(), connections, measured, tls, server.summary(base));
        String news = refused.news(System.nanoTime(), true);
        if (news != null) {
            settings.progress().println(news);
        }
        List<String> allProblems = new ArrayList<>(problems);
        allProblems.addAll(refused.problems());
        DistributedSummary summary = new DistributedSummary(merged, workers.length, executorName, rows,
                List.copyOf(allProblems), refused.total());
        if (report != null) {
            report.summary(merged);
            report.csv("workers.csv", WorkerRow.COLUMNS, rows);
        }
        return summary;
    }

    /** Merged intervals not yet emitted; bounded by the merger's window. */
    synchronized int pendingIntervals() {
        return merger.pendingIntervals();
    }

    /** True if every worker ran to the end and exited cleanly. */
    public synchronized boolean allWorkersSucceeded() {
        for (WorkerStatus w : workers) {
            if (w.state != WorkerState.DONE || w.exitCode > 1) {
                return false;
            }
        }
        return true;
    }

    private static String clipError(String error) {
        return error.length() <= MAX_ERROR_CHARS ? error : error.substring(0, MAX_ERROR_CHARS) + "...";
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    @Override
    public void close() {
        endpoint.close();
    }

    /** Admits connections with the run's secret; counts and reports every refusal as a refused input. */
    private static final class RunAuthenticator implements RpcAuthenticator {
        private final RpcAuthenticator secret;
        private final RefusedInputs refused;

        RunAuthenticator(String runSecret, RefusedInputs refused) {
            this.secret = RpcAuthenticator.bearerToken(runSecret);
            this.refused = refused;
        }

        @Override
        public boolean accepts(ByteString credential) {
            if (secret.accepts(credential)) {
                return true;
            }
            refused.record(RpcConnection.AUTH, "a connection with a wrong run secret");
            return false;
        }

        @Override
        public void refused(String method, SocketAddress peer) {
            refused.record(method, "from " + peer + ", which has not given the run secret");
        }
    }
}
