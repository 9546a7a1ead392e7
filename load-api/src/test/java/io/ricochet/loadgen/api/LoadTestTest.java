package io.ricochet.loadgen.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.loadgen.rpc.BenchUpdate;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.loadgen.workload.RpcCall;
import io.ricochet.loadgen.workload.RpcConversation;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.loadgen.workload.RpcWorkload;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcServer;
import io.ricochet.rpc.RpcStatus;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.server.RicochetServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The programmatic API against real servers on loopback: a workload written here, stateful, run for a second; its
 * thresholds, its bad replies and its exceptions reported as a JUnit test of one's own service would see them.
 */
@Timeout(60)
class LoadTestTest {
    private static RicochetServer echo;
    private static RpcServer rpc;

    @BeforeAll
    static void start() {
        echo = TestServers.echo(TestServers.config(TransportKind.NIO).udpPort(ServerConfig.DISABLED).build(),
                new SimpleMeterRegistry());
        RpcDispatcher methods = new RpcDispatcher();
        new BenchMethods().registerOn(methods);
        rpc = RpcServer.builder().config(TestServers.config(TransportKind.NIO).udpPort(ServerConfig.DISABLED).build())
                .rpc(RpcConfig.builder().build()).dispatcher(methods).build().startAndAwait();
    }

    @AfterAll
    static void stop() {
        echo.close();
        rpc.close();
    }

    /**
     * A stateful text workload: "hello N" on each connection, where N counts that connection's requests; the reversed
     * echo must answer "N olleh". {@code badEvery} makes every n-th check bad, {@code throwEvery} every n-th request
     * throw.
     */
    private static FrameWorkload hello(int badEvery, int throwEvery) {
        return connection -> new FrameConversation() {
            private long made;

            @Override
            public void request(Context request, ByteBuf body) {
                if (throwEvery > 0 && ++made % throwEvery == 0) {
                    throw new IllegalStateException("made " + made);
                }
                body.writeCharSequence("hello " + request.sequence(), StandardCharsets.US_ASCII);
            }

            @Override
            public Check check(Context request, ByteBuf reply) {
                String expected = new StringBuilder("hello " + request.sequence()).reverse().toString();
                String got = reply.toString(StandardCharsets.US_ASCII);
                if (badEvery > 0 && request.sequence() % badEvery == badEvery - 1) {
                    return Check.bad("marked bad: " + got);
                }
                return got.equals(expected) ? Check.ok() : Check.bad("got " + got + " (expected: " + expected + ")");
            }
        };
    }

    @Test
    void aWorkloadOfOnesOwnRunsWithEveryReplyCheckedAndItsThresholdsHold() throws Exception {
        LoadResult r = LoadTest.tcp(echo.tcpAddress()).workload(hello(0, 0)).connections(4).pipeline(4)
                .duration(Duration.ofSeconds(1)).threshold("errors==0").threshold("bad==0").threshold("qps>100")
                .run();
        assertTrue(r.ok() > 100, r.toString());
        assertEquals(0, r.bad(), r.firstBad());
        assertEquals(r.ok(), r.requests());
        assertTrue(r.passed());
        assertEquals(3, r.thresholds().size());
        r.assertThresholds();
        assertEquals(r.ok(), r.latency().count(), "every ok reply's latency recorded");
    }

    @Test
    void aThresholdThatCannotHoldFailsTheTest() throws Exception {
        LoadResult r = LoadTest.tcp(echo.tcpAddress()).workload(hello(0, 0)).connections(1)
                .duration(Duration.ofMillis(300)).threshold("qps>1G").run();
        assertFalse(r.passed());
        AssertionError e = assertThrows(AssertionError.class, r::assertThresholds);
        assertTrue(e.getMessage().startsWith("threshold qps>1G: broken (qps = "), e.getMessage());
    }

    @Test
    void aBadReplyIsCountedWithItsReasonAndTheRunGoesOn() throws Exception {
        LoadResult r = LoadTest.tcp(echo.tcpAddress()).workload(hello(10, 0)).connections(1).pipeline(8)
                .requests(1_000).threshold("bad==0").run();
        assertEquals(1_000, r.requests());
        assertEquals(100, r.bad(), "every tenth request");
        assertEquals(900, r.ok());
        assertEquals("connection 0 request 9: marked bad: 9 olleh", r.firstBad());
        assertFalse(r.passed());
    }

    /**
     * Pipelined, so a request that failed to be made sits among requests in flight: their replies must still be
     * matched to their own requests (a failed one took no number), or every reply after it would check as bad.
     */
    @Test
    void aWorkloadThatThrowsCountsAnErrorNamingTheExceptionAndTheRunGoesOn() throws Exception {
        LoadResult r = LoadTest.tcp(echo.tcpAddress()).workload(hello(0, 50)).connections(1).pipeline(8).requests(500)
                .run();
        assertEquals(500, r.requests());
        assertEquals(10, r.errors(), "every fiftieth request threw");
        assertEquals(0, r.bad(), r.firstBad());
        assertEquals(490, r.ok());
        assertTrue(r.firstError().startsWith("the workload threw java.lang.IllegalStateException: made 50 (in its "
                + "request of connection 0 request "), r.firstError());
    }

    @Test
    void anRpcWorkloadRunsItsCallsAndChecksEachAnswer() throws Exception {
        LoadResult r = LoadTest.rpc(rpc.address()).workload(new BenchUpdate(16, 1)).clients(3).inFlight(2)
                .requests(3_000).threshold("errors==0").run();
        assertEquals(3_000, r.ok(), r.toString());
        r.assertThresholds();
    }

    /**
     * An open loop bounded by a request count ends when its last request is answered: the lane that meets the limit
     * does not stay in its loop's heap, always due (the loop then spun until the duration's end).
     */
    @Test
    void anOpenLoopOfASetNumberOfRequestsEndsWhenTheyAreDone() throws Exception {
        LoadResult r = LoadTest.tcp(echo.tcpAddress()).workload(hello(0, 0)).connections(4).rate(2_000).requests(400)
                .duration(Duration.ofMinutes(5)).run();
        assertEquals(400, r.ok(), r.toString());
        assertTrue(r.seconds() < 60, "ended with its work, not at the duration's end: " + r.seconds() + " s");
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class, () -> LoadTest.tcp(
                echo.tcpAddress()).workload(hello(0, 0)).requests(10).warmup(Duration.ofSeconds(1)).run());
        assertTrue(both.getMessage().startsWith("requests with warmup (expected: one of them"), both.getMessage());
    }

    /** A JUnit user's load shape: stages of a rate, run with the user's own workload, every reply checked. */
    @Test
    void stagesShapeTheLoadOfOnesOwnWorkload() throws Exception {
        // Up to 1k/s over a second (500 due), then 1k/s for a second: 1,500 in two seconds.
        LoadResult r = LoadTest.tcp(echo.tcpAddress()).workload(hello(0, 0)).connections(4).pipeline(4)
                .stages("1k:1s,1k:1s:step").threshold("errors==0").run();
        assertTrue(r.ok() >= 1_495 && r.ok() <= 1_500, r.toString());
        assertEquals(2.0, r.seconds(), 0.5);
        r.assertThresholds();
        // A connection schedule needs no connection count of its own: its peak is the count.
        LoadResult held = LoadTest.tcp(echo.tcpAddress()).workload(hello(0, 0)).stages("3conns:500ms,1conns:500ms:step")
                .run();
        assertTrue(held.ok() > 0 && held.errors() == 0, held.toString());
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class, () -> LoadTest.tcp(
                echo.tcpAddress()).workload(hello(0, 0)).rate(100).stages("1k:1s").run());
        assertEquals("stages with rate (expected: one of them; the stages set the rate)", both.getMessage());
    }

    /**
     * Calls that fail as they are made (the server gone, the client not yet reconnected) end one after another in one
     * loop, not each inside the last's completion: 100,000 of them nested overflowed the stack and the run never ended.
     */
    @Test
    void callsThatFailAsTheyAreMadeEndOneByOne() throws Exception {
        RpcDispatcher methods = new RpcDispatcher();
        new BenchMethods().registerOn(methods);
        RpcServer doomed = RpcServer.builder().config(TestServers.config(TransportKind.NIO).udpPort(ServerConfig.DISABLED)
                .shutdownTimeout(Duration.ofMillis(100)).build()).rpc(RpcConfig.builder().build()).dispatcher(methods)
                .build().startAndAwait();
        java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        BenchUpdate bench = new BenchUpdate(16, 1);
        RpcWorkload stopsItsServer = connection -> {
            RpcConversation inner = bench.open(connection);
            return new RpcConversation() {
                @Override
                public RpcCall request(Context request) {
                    if (request.sequence() == 50 && stopped.compareAndSet(false, true)) {
                        doomed.stop();
                    }
                    return inner.request(request);
                }

                @Override
                public Check check(Context request, RpcReply reply) {
                    return inner.check(request, reply);
                }
            };
        };
        try (doomed) {
            LoadResult r = LoadTest.rpc(doomed.address()).workload(stopsItsServer).clients(1).requests(100_000)
                    .timeout(Duration.ofSeconds(2)).run();
            assertEquals(100_000, r.requests(), r.toString());
            assertTrue(r.ok() >= 50 && r.errors() > 50_000, r.toString());
        }
    }

    /** An answer other than OK is the conversation's to check: here a method that does not exist must be NOT_FOUND. */
    @Test
    void anRpcStatusIsCheckedByTheConversation() throws Exception {
        AtomicLong notFound = new AtomicLong();
        RpcWorkload missing = connection -> new RpcConversation() {
            @Override
            public RpcCall request(Context request) {
                return new RpcCall("no.such.method", ByteString.copyFromUtf8("x"));
            }

            @Override
            public Check check(Context request, RpcReply reply) {
                if (reply.status() == RpcStatus.NOT_FOUND) {
                    notFound.incrementAndGet();
                    return Check.ok();
                }
                return Check.bad(reply.status().name());
            }
        };
        LoadResult r = LoadTest.rpc(rpc.address()).workload(missing).clients(2).requests(200).run();
        assertEquals(200, r.ok(), r.toString());
        assertEquals(200, notFound.get());
        LoadResult defaults = LoadTest.rpc(rpc.address()).workload(connection -> request -> new RpcCall(
                "no.such.method", ByteString.EMPTY)).clients(1).requests(10).run();
        assertEquals(10, defaults.bad(), "the default check takes only OK");
        assertTrue(defaults.firstBad().contains("NOT_FOUND"), defaults.firstBad());
    }

    /** The builders make the scenario the command line makes: echo's defaults, the settings given, crr for its own. */
    @Test
    void theBuildersMakeAScenario() {
        Scenario s = LoadTest.tcp(echo.tcpAddress()).connections(3).rate(500).duration(Duration.ofSeconds(4))
                .workload("kv-text", Map.of("keys", "10")).threshold("p99<5ms").scenario();
        assertEquals(Command.ECHO, s.command());
        assertEquals(3, s.connections());
        assertEquals(500, s.rate());
        assertEquals(Duration.ofSeconds(2), s.effectiveWarmup(), "an open loop warms up, as on the command line");
        assertEquals("kv-text", s.workload().name());
        assertEquals(Map.of("keys", "10"), s.workload().params());
        assertEquals("p99<5ms", s.thresholds().get(0).expression());
        assertEquals(Command.CRR, LoadTest.tcp(echo.tcpAddress()).connectionPerRequest().scenario().command());
        Scenario calls = LoadTest.rpc(rpc.address()).clients(4).inFlight(8).warmup(100).scenario();
        assertEquals(Command.RPC, calls.command());
        assertEquals(4, calls.connections());
        assertEquals(8, calls.inFlight());
        assertEquals(100, calls.warmupRequests());
        assertEquals(200_000, calls.requests(), "rpc's default");
        assertEquals(s, LoadTest.of(s).scenario(), "a scenario runs as it is");
    }

    /** A bad setting is refused when the test runs, naming the scenario's key, before any connection. */
    @Test
    void aBadSettingNamesItsKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoadTest.tcp(echo.tcpAddress()).connections(0).run());
        assertEquals("connections: 0 (expected: > 0)", e.getMessage());
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> LoadTest.tcp(echo.tcpAddress()).requests(10).warmup(Duration.ofSeconds(1)).run());
        assertTrue(both.getMessage().startsWith("requests with warmup (expected: one of them"), both.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> LoadTest.tcp(echo.tcpAddress()).workload("no-such-workload", Map.of()).run());
        assertTrue(unknown.getMessage().contains("no-such-workload"), unknown.getMessage());
    }

    /** Workers make their own workload, so an object cannot go to them: refused before any worker starts. */
    @Test
    void anObjectWorkloadIsRefusedWithWorkers() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoadTest.tcp(echo.tcpAddress()).workload(hello(0, 0)).workers(LocalWorkers.of(2)).run());
        assertTrue(e.getMessage().startsWith("workload: "), e.getMessage());
        assertTrue(e.getMessage().contains("workload(name, params)"), e.getMessage());
    }

    /** A baseline gate from JUnit: margins against an earlier run, in compare --fail-if's syntax. */
    @Test
    void aRunIsGatedOnABaseline(@TempDir java.nio.file.Path report) throws Exception {
        LoadResult before = LoadTest.tcp(echo.tcpAddress()).connections(2).requests(400).report(report).run();
        LoadResult after = LoadTest.tcp(echo.tcpAddress()).connections(2).requests(400).run();
        after.assertNoWorseThan(before, "requests<-1%", "errors>+0%");
        AssertionError e = assertThrows(AssertionError.class, () -> after.assertNoWorseThan(before, "ok>-100%"));
        assertEquals("fail-if ok>-100%: broken (ok 400 -> 400, +0.0%)", e.getMessage());
        assertTrue(after.compareTo(report, "requests<-1%").get(0).passed(), "against the report's summary.json");
        assertThrows(IllegalArgumentException.class, () -> after.compareTo(before, "p99>10%"));
    }

    /** A baseline's summary.json is read with a bound: one of 300 MiB is refused by name, not read into memory. */
    @Test
    void aBaselineSummaryOverTheBoundIsRefusedByName(@TempDir java.nio.file.Path report) throws Exception {
        LoadResult run = LoadTest.tcp(echo.tcpAddress()).connections(1).requests(10).run();
        try (java.io.RandomAccessFile huge = new java.io.RandomAccessFile(report.resolve("summary.json").toFile(), "rw")) {
            huge.setLength(300L << 20);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> run.compareTo(report, "requests<-1%"));
        assertTrue(e.getMessage().contains(report.resolve("summary.json") + ": over 268,435,456 bytes"), e.getMessage());
    }

    @Test
    void aWindowedThresholdAbortsTheRunWithItsReportWritten(@TempDir java.nio.file.Path report) throws Exception {
        // No reply comes back within a microsecond: the first full window breaks, and the run stops there.
        LoadResult r = LoadTest.tcp(echo.tcpAddress()).connections(2).rate(200).duration(Duration.ofSeconds(30))
                .warmup(Duration.ZERO).threshold("p99[1s]<1us;abort").threshold("errors==0").report(report).run();
        assertFalse(r.passed());
        assertTrue(r.seconds() < 15, "stopped at the breach, not after 30 s: " + r.seconds());
        assertTrue(r.problems().get(0).startsWith("aborted: threshold p99[1s]<1us;abort broken at "), r.problems()
                .toString());
        LoadResult.Verdict broken = r.thresholds().get(0);
        assertFalse(broken.passed());
        assertTrue(broken.firstBrokenS() != null && broken.firstBrokenS() >= 1, broken.toString());
        assertTrue(r.thresholds().get(1).passed(), r.thresholds().toString());
        com.fasterxml.jackson.databind.JsonNode summary = io.ricochet.loadgen.report.ReportWriter.JSON.readTree(
                report.resolve("summary.json").toFile());
        assertTrue(summary.get("aborted").asText().startsWith("threshold p99[1s]<1us;abort broken at"), summary.toString());
        assertTrue(summary.get("thresholds").get(0).has("first_broken_s"), summary.toString());
        assertTrue(java.nio.file.Files.readAllLines(report.resolve("intervals.csv")).size() >= 2,
                "the intervals measured before the abort are written");
    }

    /** A setting the command would ignore is refused, not sent to a run that would run without it. */
    @Test
    void aSettingTheCommandDoesNotTakeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadTest.tcp(
                echo.tcpAddress()).connectionPerRequest().rate(1000).pipeline(4).scenario());
        assertEquals("pipeline: 4, rate: 1000 (expected: none; crr does not take them)", e.getMessage());
    }

    /** A security object and the other security's settings would each be half obeyed: refused instead. */
    @Test
    void aNoiseObjectWithTlsSettingsIsRefused() {
        io.ricochet.noise.ClientNoiseConfig noise = io.ricochet.noise.ClientNoiseConfig.builder(
                io.ricochet.noise.NoiseKeyPair.parsePublicKey(io.ricochet.noise.NoiseKeyPair.generate()
                        .publicKeyBase64())).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadTest.tcp(echo.tcpAddress())
                .tls(new io.ricochet.loadgen.scenario.TlsSettings(true, null, true, null, null, "auto", false, false))
                .noise(noise).run());
        assertEquals("noise: a Noise configuration with TLS (expected: one or the other)", e.getMessage());
    }

    /** With no workload given, the generated bodies are checked as the reference echo server answers them. */
    @Test
    void theDefaultWorkloadIsTheReferenceEcho() throws Exception {
        LoadResult r = LoadTest.tcp(echo.tcpAddress()).connections(2).requests(500).threshold("bad==0").run();
        assertEquals(500, r.ok(), r.toString());
        assertTrue(r.workers().isEmpty());
        assertTrue(r.problems().isEmpty());
        r.assertThresholds();
    }

    @Test
    void localWorkersAreCheckedWhenMade() {
        assertThrows(IllegalArgumentException.class, () -> LocalWorkers.of(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LocalWorkers.of(2).weights(1, 0));
        assertEquals("weights: 0.0 (expected: > 0)", e.getMessage());
    }
}
