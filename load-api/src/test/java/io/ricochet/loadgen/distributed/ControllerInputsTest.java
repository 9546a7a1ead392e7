package io.ricochet.loadgen.distributed;

import static io.ricochet.loadgen.distributed.FakeWorker.done;
import static io.ricochet.loadgen.distributed.FakeWorker.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpServer;
import io.ricochet.loadgen.distributed.proto.Done;
import io.ricochet.loadgen.distributed.proto.Hello;
import io.ricochet.loadgen.distributed.proto.Ready;
import io.ricochet.loadgen.distributed.proto.WorkerSummary;
import io.ricochet.loadgen.report.DistributedSummary;
import io.ricochet.loadgen.report.WorkerRow;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcStatus;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the controller takes on its coordination port, from its workers and from anyone else: calls that
 * are not a worker's own, or not well-formed, are refused whole, counted, and fail the run.
 */
@Timeout(60)
class ControllerInputsTest {

    @Test
    void aWorkerMayBeSilentThroughItsWarmupButNotOnceItHasReported() throws Exception {
        try (ControllerRun run = new ControllerRun(1, Duration.ofSeconds(1), null, Duration.ofMillis(300),
                Duration.ofSeconds(30))) {
            FakeWorker worker = run.ready(0);
            worker.awaitStart();
            // Silent for over three stall timeouts: it is warming up, which sends no report.
            Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                    .until(() -> !run.live().contains("stopped reporting"));
            worker.accepted(Coordination.REPORT, report(0, 0).setOk(7).build());
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> run.live().contains("worker 0 FAILED: stopped reporting: nothing for 300ms"));
        }
    }

    @Test
    void aWorkerLostUnderAbortStopsTheRunAtOnceAndNamesIt() throws Exception {
        try (ControllerRun run = new ControllerRun(2, WorkerLoss.ABORT)) {
            FakeWorker kept = run.ready(0);
            FakeWorker lost = run.ready(1);
            kept.awaitStart();
            lost.awaitStart();
            kept.accepted(Coordination.REPORT, report(0, 0).setOk(7).build());
            lost.accepted(Coordination.REPORT, report(1, 0).setOk(5).build());
            lost.close();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> run.live().contains(
                    "controller: worker 1 lost: connection lost (the worker died or was killed) (--on-worker-loss "
                    + "abort); stopping every worker"));
            // The controller told the others to stop: the one left ends its shard with what it measured.
            kept.accepted(Coordination.DONE, FakeWorker.done(0));
            DistributedSummary s = run.summary();
            assertEquals(1, s.workersLost());
            assertEquals("abort", s.onWorkerLoss());
            assertTrue(s.aborted().startsWith("worker 1 lost: connection lost"), s.aborted());
            assertTrue(s.problems().contains("run aborted: " + s.aborted()), s.problems().toString());
            assertEquals(12, s.merged().ok(), "what both measured before the loss is kept");
            assertTrue(s.workerRows().get(1).lostAtS() != null && s.workerRows().get(0).lostAtS() == null);
        }
    }

    @Test
    void aWorkerLostUnderContinueLeavesTheOthersRunning() throws Exception {
        try (ControllerRun run = new ControllerRun(2, WorkerLoss.CONTINUE)) {
            FakeWorker kept = run.ready(0);
            FakeWorker lost = run.ready(1);
            kept.awaitStart();
            lost.awaitStart();
            lost.close();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> run.live().contains("worker 1 FAILED"));
            kept.accepted(Coordination.REPORT, report(0, 0).setOk(7).build());
            kept.accepted(Coordination.REPORT, report(0, 1).setOk(8).build());
            kept.accepted(Coordination.DONE, FakeWorker.done(0));
            DistributedSummary s = run.summary();
            assertEquals(1, s.workersLost());
            assertEquals("continue", s.onWorkerLoss());
            assertEquals(null, s.aborted());
            assertEquals(15, s.merged().ok());
            assertTrue(!run.live().contains("stopping every worker"), run.live());
        }
    }

    @Test
    void aReportFromAConnectionThatNeverSaidHelloIsRefusedAndNotMerged() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.ready(0);
            worker.awaitStart();
            FakeWorker stranger = run.connect();
            for (int i = 0; i < 3; i++) {
                RpcException e = stranger.refused(Coordination.REPORT,
                        report(0, i).setOk(5_000_000).setBad(-1_000).setErrors(-2_000).build(), RpcStatus.INVALID_ARGUMENT);
                assertTrue(e.detail().contains("worker 0: report from a connection that did not say hello as worker 0"),
                        e.detail());
            }
            worker.accepted(Coordination.REPORT, report(0, 0).setOk(7).build());
            worker.accepted(Coordination.DONE, done(0));
            DistributedSummary s = run.summary();
            assertEquals(7, s.merged().ok());
            assertEquals(0, s.merged().bad() + s.merged().errors());
            assertEquals(3, s.refusedInputs());
        }
    }

    /** A process that is not one of the run's workers: without the run's secret it cannot say hello or report. */
    @Test
    void aRogueWorkerWithoutTheRunSecretIsRefusedCountedAndNotMerged() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.ready(0);
            worker.awaitStart();
            FakeWorker rogue = run.connectRogue();
            rogue.refused(Coordination.HELLO, Hello.newBuilder().setIndex(0).setHost("rogue").build(),
                    RpcStatus.UNAUTHENTICATED);
            RpcException e = rogue.refused(Coordination.REPORT, report(0, 0).setOk(5_000_000).build(),
                    RpcStatus.UNAUTHENTICATED);
            assertTrue(e.detail().contains("authenticate first"), e.detail());
            worker.accepted(Coordination.REPORT, report(0, 0).setOk(7).build());
            worker.accepted(Coordination.DONE, done(0));
            DistributedSummary s = run.summary();
            assertEquals(7, s.merged().ok(), "the rogue's report was merged");
            assertEquals(2, s.refusedInputs());
        }
    }

    /**
     * A crowd of strangers on the coordination port, none with the run's secret, connected before the workers: the
     * workers still get in and the run completes, and the strangers turned away are counted and named. With the
     * connection cap alone, 40 of them kept two workers out until the start barrier timed out.
     */
    @Test
    void aCrowdOfStrangersCannotKeepTheWorkersOutAndIsNamed() throws Exception {
        int strangers = CoordinationService.MAX_STRANGERS + 36;
        List<java.net.Socket> crowd = new ArrayList<>();
        try (ControllerRun run = new ControllerRun(2)) {
            for (int i = 0; i < strangers; i++) {
                crowd.add(new java.net.Socket(run.controller.address().getAddress(), run.controller.address().getPort()));
            }
            FakeWorker first = run.ready(0);
            FakeWorker second = run.ready(1);
            first.awaitStart();
            second.awaitStart();
            first.accepted(Coordination.REPORT, report(0, 0).setOk(3).build());
            second.accepted(Coordination.REPORT, report(1, 0).setOk(4).build());
            first.accepted(Coordination.DONE, done(0));
            second.accepted(Coordination.DONE, done(1));
            DistributedSummary s = run.summary();
            assertEquals(7, s.merged().ok());
            // The longest waiting strangers made room for the newest connections, the workers among them.
            assertTrue(s.refusedInputs() >= strangers - CoordinationService.MAX_STRANGERS, s.problems().toString());
            assertTrue(s.problems().stream().anyMatch(p -> p.contains("a connection from /127.0.0.1:")
                    && p.contains("closed: not authenticated")), s.problems().toString());
        } finally {
            for (java.net.Socket socket : crowd) {
                socket.close();
            }
        }
    }

    @Test
    void aReportWithANegativeCounterIsRefusedWhole() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.ready(0);
            worker.awaitStart();
            RpcException e = worker.refused(Coordination.REPORT, report(0, 0).setOk(5).setBad(-3).setLatency(
                    HistogramCodec.encode(histogram(100, 200))).build(), RpcStatus.INVALID_ARGUMENT);
            assertTrue(e.detail().contains("worker 0: bad: -3 (expected: >= 0)"), e.detail());
            worker.refused(Coordination.REPORT, report(0, 1).setElapsedS(Double.NaN).build(), RpcStatus.INVALID_ARGUMENT);
            worker.accepted(Coordination.DONE, done(0));
            DistributedSummary s = run.summary();
            assertNothingMerged(s);
        }
    }

    @Test
    void aBadHistogramAfterValidCountersMergesNothing() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.ready(0);
            worker.awaitStart();
            // Valid counters and a valid latency histogram, then a service histogram whose deflate stream is garbage.
            ByteBuffer garbage = ByteBuffer.allocate(18).putInt(HistogramCodec.COMPRESSED_COOKIE).putInt(10)
                    .put(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
            RpcException e = worker.refused(Coordination.REPORT, report(0, 0).setOk(5).setOkBytes(500).setConnects(1)
                    .setLatency(HistogramCodec.encode(histogram(100, 200)))
                    .setService(ByteString.copyFrom(garbage.array())).build(), RpcStatus.INVALID_ARGUMENT);
            assertTrue(e.detail().startsWith("worker 0: service: "), e.detail());
            worker.accepted(Coordination.DONE, done(0));
            DistributedSummary s = run.summary();
            assertNothingMerged(s);
            assertEquals(0, s.merged().latencyUs().count());
        }
    }

    @Test
    void farFutureIntervalsAreRefusedAndPendingStaysBounded() throws Exception {
        // An hour's interval: the window does not move on while the 2,000 calls go, however slowly the machine runs.
        try (ControllerRun run = new ControllerRun(1, Duration.ofHours(1), null)) {
            FakeWorker worker = run.ready(0);
            worker.awaitStart();
            List<CompletableFuture<ByteString>> calls = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                calls.add(worker.call(Coordination.REPORT, report(0, 1_000 + i).setOk(1).build()));
            }
            for (CompletableFuture<ByteString> call : calls) {
                FakeWorker.refused(call, RpcStatus.INVALID_ARGUMENT);
            }
            assertTrue(run.controller.pendingIntervals() <= IntervalMerger.DEFAULT_WINDOW + 1,
                    "pending: " + run.controller.pendingIntervals());
            RpcException e = worker.refused(Coordination.REPORT, report(0, 61).build(), RpcStatus.INVALID_ARGUMENT);
            assertTrue(e.detail().contains("interval: 61 (expected: <= 60"), e.detail());
            worker.accepted(Coordination.REPORT, report(0, 60).setOk(2).build());
            worker.accepted(Coordination.DONE, done(0));
            DistributedSummary s = run.summary();
            assertEquals(2, s.merged().ok());
            assertEquals(2_001, s.refusedInputs());
        }
    }

    @Test
    void aRepeatedOrOlderIntervalFromTheSameWorkerIsRefused() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.ready(0);
            worker.awaitStart();
            ByteString one = HistogramCodec.encode(histogram(100));
            worker.accepted(Coordination.REPORT, report(0, 3).setOk(1).setLatency(one).build());
            RpcException e = worker.refused(Coordination.REPORT, report(0, 3).setOk(10).setLatency(one).build(),
                    RpcStatus.INVALID_ARGUMENT);
            assertTrue(e.detail().contains("worker 0: interval: 3 (expected: > 3"), e.detail());
            worker.refused(Coordination.REPORT, report(0, 2).setOk(100).setLatency(one).build(), RpcStatus.INVALID_ARGUMENT);
            worker.accepted(Coordination.REPORT, report(0, 4).setOk(1_000).setLatency(one).build());
            worker.accepted(Coordination.DONE, done(0));
            DistributedSummary s = run.summary();
            assertEquals(1_001, s.merged().ok());
            assertEquals(2, s.merged().latencyUs().count(), "each accepted report's histogram, once");
            assertEquals(2, s.refusedInputs());
        }
    }

    @Test
    void aTypedSummaryIsMergedAndAnImpossibleOneIsRefused() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.connect();
            worker.hello(0);
            worker.ready(0);
            worker.awaitStart();
            worker.accepted(Coordination.REPORT, report(0, 0).setOk(3).build());
            WorkerSummary typed = WorkerSummary.newBuilder().setTransport("tcp").setIo("epoll").setConnections(7)
                    .setDurationS(2.5).setLatencyKind("corrected").setFirstError("boom").build();
            RpcException e = worker.refused(Coordination.DONE, Done.newBuilder().setIndex(0)
                    .setSummary(typed.toBuilder().setDurationS(Double.NaN)).build(), RpcStatus.INVALID_ARGUMENT);
            assertTrue(e.detail().contains("worker 0: summary: duration_s: NaN"), e.detail());
            worker.refused(Coordination.DONE, Done.newBuilder().setIndex(0)
                    .setSummary(typed.toBuilder().setLatencyKind("made_up")).build(), RpcStatus.INVALID_ARGUMENT);
            // The typed summary wins over the JSON beside it.
            worker.accepted(Coordination.DONE, Done.newBuilder().setIndex(0).setSummaryJson("{\"connections\": 1}")
                    .setSummary(typed).build());
            DistributedSummary s = run.summary();
            assertEquals(7, s.merged().connections());
            assertEquals("tcp", s.merged().transport());
            assertEquals("corrected", s.merged().latencyKind());
            assertEquals("worker 0: boom", s.merged().firstError());
        }
    }

    @Test
    void readyAndDoneFromAStrangerAreRefused() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.connect();
            worker.hello(0);
            FakeWorker stranger = run.connect();
            RpcException e = stranger.refused(Coordination.DONE, done(0), RpcStatus.INVALID_ARGUMENT);
            assertTrue(e.detail().contains("worker 0: done from a connection that did not say hello as worker 0"),
                    e.detail());
            stranger.refused(Coordination.READY, Ready.newBuilder().setIndex(0).build(), RpcStatus.INVALID_ARGUMENT);
            // The run goes on: the real worker is still the one that gets ready, is started and is done.
            worker.ready(0);
            worker.awaitStart();
            worker.accepted(Coordination.REPORT, report(0, 0).setOk(3).build());
            stranger.refused(Coordination.DONE, done(0), RpcStatus.INVALID_ARGUMENT);
            worker.accepted(Coordination.DONE, done(0));
            DistributedSummary s = run.summary();
            assertEquals("DONE", s.workerRows().get(0).state());
            assertEquals(3, s.merged().ok());
            assertEquals(3, s.refusedInputs());
        }
    }

    @Test
    void aSecondHelloForAnIndexOrASecondIndexForAConnectionIsRefused() throws Exception {
        try (ControllerRun run = new ControllerRun(2)) {
            FakeWorker first = run.connect();
            first.hello(0);
            FakeWorker second = run.connect();
            RpcException taken = second.refused(Coordination.HELLO, Hello.newBuilder().setIndex(0).build(),
                    RpcStatus.ALREADY_EXISTS);
            assertTrue(taken.detail().contains("worker 0 is already CONNECTED"), taken.detail());
            RpcException twice = first.refused(Coordination.HELLO, Hello.newBuilder().setIndex(1).build(),
                    RpcStatus.INVALID_ARGUMENT);
            assertTrue(twice.detail().contains("already said hello as worker 0"), twice.detail());
            // Index 1 is still free for a connection that has not said hello.
            second.hello(1);
            first.ready(0);
            second.ready(1);
            first.awaitStart();
            second.awaitStart();
            first.accepted(Coordination.DONE, done(0));
            second.accepted(Coordination.DONE, done(1));
            DistributedSummary s = run.summary();
            assertEquals("DONE", s.workerRows().get(0).state());
            assertEquals("DONE", s.workerRows().get(1).state());
            assertEquals(2, s.refusedInputs());
        }
    }

    @Test
    void aRunWithRefusedInputsSaysSoInItsProblemsAndLiveOutput() throws Exception {
        try (ControllerRun run = new ControllerRun(1)) {
            FakeWorker worker = run.ready(0);
            worker.awaitStart();
            FakeWorker stranger = run.connect();
            for (int i = 0; i < 50; i++) {
                stranger.refused(Coordination.REPORT, report(0, i).setOk(1).build(), RpcStatus.INVALID_ARGUMENT);
            }
            worker.accepted(Coordination.DONE, done(0));
            DistributedSummary s = run.summary();
            assertEquals(50, s.refusedInputs());
            assertTrue(s.problems().stream().anyMatch(p -> p.startsWith("refused 50 worker.report calls (first: worker 0: "
                    + "report from a connection that did not say hello as worker 0)")), s.problems().toString());
            String live = run.live();
            assertTrue(live.contains("controller: 50 inputs refused so far"), live);
            // Rate-limited: a few lines for the whole flood, not one each.
            assertTrue(live.lines().filter(l -> l.contains("refused so far")).count() < 10, live);
        }
    }

    private static void assertNothingMerged(DistributedSummary s) {
        WorkerRow row = s.workerRows().get(0);
        assertEquals(0, row.ok() + row.bad() + row.errors(), row.toString());
        assertEquals(0, row.intervals(), row.toString());
        assertEquals(0, s.merged().ok() + s.merged().bad() + s.merged().errors());
        assertEquals(0.0, s.merged().throughputBytesPerS());
        assertEquals(0, s.merged().connectTimeUs().count());
        assertTrue(s.refusedInputs() > 0);
    }

    private static Histogram histogram(long... micros) {
        Histogram h = RunStats.newHistogram();
        for (long v : micros) {
            h.recordValue(v);
        }
        return h;
    }

    /** The server's frames during the workers' warmup are not held against the client's count, which has none. */
    @Test
    void theFramesCrossCheckStartsWhenTheWarmupEnds() throws Exception {
        AtomicLong frames = new AtomicLong();
        AtomicLong scrapes = new AtomicLong();
        HttpServer metrics = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        metrics.createContext("/metrics", exchange -> {
            scrapes.incrementAndGet();
            byte[] body = ("ricochet_frames_sent_total{io=\"epoll\",name=\"echo\",protocol=\"tcp\",role=\"server\"} "
                    + frames.get() + ".0\n").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        metrics.start();
        try (ControllerRun run = new ControllerRun(1, Duration.ofSeconds(1),
                List.of(URI.create("http://127.0.0.1:" + metrics.getAddress().getPort() + "/metrics")),
                Duration.ofSeconds(60), Duration.ofSeconds(2))) {
            FakeWorker w = run.ready(0);
            w.awaitStart();
            frames.set(1_000); // answered during the warmup
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> scrapes.get() >= 2);
            frames.addAndGet(7);
            w.accepted(Coordination.REPORT, FakeWorker.report(0, 0).setOk(7).build());
            w.accepted(Coordination.DONE, FakeWorker.done(0));
            DistributedSummary summary = run.summary();
            assertEquals(7, summary.merged().ok());
            assertEquals(7, summary.merged().server().framesSent(), summary.merged().server().toString());
        } finally {
            metrics.stop(0);
        }
    }

    /**
     * A scrape target taking a second per scrape once held the merger back until an honest worker's on-time
     * reports fell outside the window, and the run failed.
     */
    @Test
    void aSlowScrapeTargetDoesNotMakeAnHonestWorkersReportsRefused() throws Exception {
        HttpServer slow = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slow.createContext("/metrics", exchange -> {
            try {
                Thread.sleep(1_000); // a slow server, not a wait of the test's
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "ricochet_frames_sent_total{io=\"epoll\",name=\"echo\",protocol=\"tcp\",role=\"server\"} 1.0\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        slow.start();
        ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor();
        try (ControllerRun run = new ControllerRun(1, Duration.ofMillis(50),
                URI.create("http://127.0.0.1:" + slow.getAddress().getPort() + "/metrics"))) {
            FakeWorker w = run.ready(0);
            w.awaitStart();
            int intervals = 100; // 5 s of 50 ms intervals: past the window of 60 when merging lags a scrape per interval
            List<CompletableFuture<ByteString>> reports = new ArrayList<>();
            CountDownLatch sent = new CountDownLatch(intervals);
            AtomicLong next = new AtomicLong();
            pace.scheduleAtFixedRate(() -> {
                long i = next.getAndIncrement();
                if (i < intervals) {
                    synchronized (reports) {
                        reports.add(w.call(Coordination.REPORT, FakeWorker.report(0, i).setOk(1).build()));
                    }
                    sent.countDown();
                }
            }, 0, 50, TimeUnit.MILLISECONDS);
            assertTrue(sent.await(30, TimeUnit.SECONDS));
            synchronized (reports) {
                for (CompletableFuture<ByteString> report : reports) {
                    report.get(30, TimeUnit.SECONDS);
                }
            }
            w.accepted(Coordination.DONE, FakeWorker.done(0));
            DistributedSummary summary = run.summary();
            assertEquals(0, summary.refusedInputs(), summary.problems().toString());
            assertEquals(intervals, summary.merged().ok());
        } finally {
            pace.shutdownNow();
            slow.stop(0);
        }
    }
}
