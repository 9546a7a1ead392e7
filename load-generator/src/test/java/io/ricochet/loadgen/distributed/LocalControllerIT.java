package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.loadgen.cli.CliRunner;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcStatus;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The controller with local worker JVMs, against the embedded echo server. */
@Timeout(180)
class LocalControllerIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void fourWorkersMergeExactlyAndAgreeWithTheServer(@TempDir Path report) throws Exception {
        // Five JVMs share 2 cores here, the embedded server under paranoid leak detection, and served about
        // 2,000 requests/s: at 40,000 or 8,000 offered, replies queued past the 5 s timeout. 1,500/s stays below,
        // and 6 s outlast the 8,000 connects on a busy machine. The first seconds, with 8,000 connects and four cold
        // JVMs, saw p99 over 3 s: a 15 s timeout keeps a stall from counting as an error in a test of the merge.
        CliRunner.Result r = CliRunner.run("controller", "--workers", "4", "echo", "--connections", "8000",
                "--connect-rate", "8000", "--rate", "1500/s", "--warmup", "0s", "--timeout", "15s", "--duration", "6s",
                "--json",
                "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        JsonNode merged = s.get("merged");
        long ok = merged.get("ok").asLong();
        assertTrue(ok > 0, merged.toString());
        assertEquals(8000, merged.get("connections").asInt());
        assertEquals(8000, merged.get("connect_time_us").get("count").asLong());
        // Merged ok = the workers' own ok = the server's frames.sent growth.
        long workersOk = 0;
        Histogram raw = RunStats.newHistogram();
        for (int i = 0; i < 4; i++) {
            JsonNode own = JSON.readTree(report.resolve("workers/" + i + "/summary.json").toFile());
            assertEquals(2000, own.get("connections").asInt());
            workersOk += own.get("ok").asLong();
            addLog(report.resolve("workers/" + i + "/latency.hlog"), raw);
            assertEquals("DONE", s.get("worker_rows").get(i).get("state").asText());
        }
        assertEquals(workersOk, ok);
        assertEquals((double) ok, merged.get("server").get("frames_sent").asDouble());
        // The controller's summary.json says what and where the run ran, as a single run's does.
        JsonNode stamp = JSON.readTree(report.resolve("summary.json").toFile()).get("run");
        assertEquals(Runtime.getRuntime().availableProcessors(), stamp.get("host").get("cores").asInt(), stamp.toString());
        assertTrue(stamp.get("started_utc").asText().endsWith("Z"), stamp.toString());
        // Exact merge: the controller's percentiles are those of all workers' recordings added together.
        JsonNode latency = merged.get("latency_us");
        assertEquals(raw.getTotalCount(), latency.get("count").asLong());
        assertEquals(raw.getValueAtPercentile(50), latency.get("p50").asLong());
        assertEquals(raw.getValueAtPercentile(99), latency.get("p99").asLong());
        assertEquals(raw.getValueAtPercentile(99.9), latency.get("p999").asLong());
        assertEquals(raw.getMaxValue(), latency.get("max").asLong());
        Histogram controllerLog = RunStats.newHistogram();
        addLog(report.resolve("latency.hlog"), controllerLog);
        assertEquals(raw, controllerLog);
        List<String> workers = Files.readAllLines(report.resolve("workers.csv"));
        assertEquals(5, workers.size());
    }

    /** The embedded server serves TLS with its throwaway CA; the workers are told to trust it, and say so. */
    @Test
    void workersGetTheTlsFlagsAndTheirHandshakesMerge(@TempDir Path report) throws Exception {
        CliRunner.Result r = CliRunner.run("controller", "--workers", "2", "echo", "--tls", "--connections", "6",
                "--duration", "2s", "--json", "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode merged = r.json().get("merged");
        assertTrue(merged.get("ok").asLong() > 0, merged.toString());
        assertEquals(0, merged.get("bad").asLong() + merged.get("errors").asLong(), merged.toString());
        assertEquals((double) merged.get("ok").asLong(), merged.get("server").get("frames_sent").asDouble());
        assertEquals(6, merged.get("handshake_time_us").get("count").asLong(), merged.toString());
        assertEquals(0, merged.get("handshake_failures").asLong());
        for (int i = 0; i < 2; i++) {
            JsonNode own = JSON.readTree(report.resolve("workers/" + i + "/summary.json").toFile());
            assertEquals(3, own.get("handshake_time_us").get("count").asLong(), own.toString());
        }
        // The controller's summary.json says where each worker ran: here, each a JVM on this host.
        JsonNode workers = JSON.readTree(report.resolve("summary.json").toFile()).get("run").get("workers");
        assertEquals(2, workers.size(), workers.toString());
        for (int i = 0; i < 2; i++) {
            JsonNode w = workers.get(i);
            assertEquals(i, w.get("worker").asInt(), w.toString());
            assertEquals(RunMetadata.thisHost().name(), w.get("host").get("name").asText(), w.toString());
            assertEquals(Runtime.getRuntime().availableProcessors(), w.get("host").get("cores").asInt(), w.toString());
            assertEquals(RunMetadata.thisHost().memoryBytes(), w.get("host").get("memory_bytes").asLong(), w.toString());
            assertEquals(Runtime.version().toString(), w.get("jvm").get("version").asText(), w.toString());
        }
    }

    /**
     * The workers load the embedded server's port of the scenario's transport: over QUIC trusting its throwaway CA as
     * they are told, over UDP its UDP port (they were once sent to its TCP port, where nothing answers datagrams).
     */
    @ParameterizedTest
    @ValueSource(strings = {"quic", "udp"})
    void workersLoadTheEmbeddedServersPortOfTheirTransport(String transport) {
        CliRunner.Result r = CliRunner.run("controller", "--workers", "2", "echo", "--transport", transport,
                "--connections", "6", "--pipeline", "4", "--duration", "2s", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode merged = r.json().get("merged");
        assertTrue(merged.get("ok").asLong() > 0, merged.toString());
        assertEquals(0, merged.get("bad").asLong(), merged.toString());
        // A datagram may be lost on either side, so over UDP the client verifies no more than the server answered.
        assertTrue(merged.get("ok").asLong() <= merged.get("server").get("frames_sent").asLong(), merged.toString());
        if (transport.equals("quic")) {
            assertEquals(0, merged.get("errors").asLong(), merged.toString());
            assertEquals((double) merged.get("ok").asLong(), merged.get("server").get("frames_sent").asDouble());
        }
    }

    /** The embedded server serves Noise with a key of its own; the workers are told to pin it. */
    @Test
    void workersPinTheEmbeddedNoiseKeyAndTheirHandshakesMerge() throws Exception {
        CliRunner.Result r = CliRunner.run("controller", "--workers", "2", "echo", "--encrypt", "stream", "--key-bits",
                "128", "--connections", "4", "--pipeline", "4", "--duration", "2s", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode merged = r.json().get("merged");
        assertTrue(merged.get("ok").asLong() > 0, merged.toString());
        assertEquals(0, merged.get("bad").asLong() + merged.get("errors").asLong(), merged.toString());
        assertEquals((double) merged.get("ok").asLong(), merged.get("server").get("frames_sent").asDouble());
        assertEquals(4, merged.get("handshake_time_us").get("count").asLong(), merged.toString());
        assertEquals(0, merged.get("handshake_failures").asLong());
    }

    @Test
    void anRpcRunSplitsItsClientsAndRequestsExactly() {
        CliRunner.Result r = CliRunner.run("controller", "--workers", "2", "rpc", "--clients", "4", "--requests", "2001",
                "--in-flight", "2", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode merged = r.json().get("merged");
        assertEquals(2001, merged.get("ok").asLong());
        assertEquals(2001, merged.get("latency_us").get("count").asLong());
        assertEquals(4, merged.get("connections").asInt());
        assertEquals(2001.0, merged.get("server").get("rpc_requests").asDouble());
        assertEquals(1001, r.json().get("worker_rows").get(0).get("ok").asLong());
        assertEquals(1000, r.json().get("worker_rows").get(1).get("ok").asLong());
    }

    @Test
    void registerPairsOfDifferentWorkersNeverShareAUri() {
        CliRunner.Result r = CliRunner.run("controller", "--workers", "2", "register", "--pairs", "4", "--cycles", "400",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode merged = r.json().get("merged");
        assertEquals(400, merged.get("ok").asLong(), merged.toString());
        assertEquals(0, merged.get("bad").asLong() + merged.get("errors").asLong());
        assertEquals(1600.0, merged.get("server").get("rpc_requests").asDouble());
    }

    @ParameterizedTest
    @ValueSource(strings = {"continue", "abort"})
    void aKilledWorkerIsNamedAndTheRunFollowsItsPolicy(String policy, @TempDir Path report) throws Exception {
        // The live output goes to stderr, like every command's progress: capture it for this test.
        java.io.ByteArrayOutputStream live = new java.io.ByteArrayOutputStream();
        java.io.PrintStream original = System.err;
        System.setErr(new java.io.PrintStream(live, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            killOneOfThree(policy, report, live);
        } finally {
            System.setErr(original);
        }
    }

    private void killOneOfThree(String policy, Path report, java.io.ByteArrayOutputStream live) throws Exception {
        CompletableFuture<CliRunner.Result> run = CompletableFuture.supplyAsync(() -> CliRunner.run("controller",
                "--workers", "3", "--stall-timeout", "20s", "--on-worker-loss", policy, "echo", "--connections", "30",
                "--rate", "3000/s", "--duration", "8s", "--threshold", "requests>0", "--threshold", "p99<10s",
                "--json", "--report", report.toString()));
        // Two rows written means the first interval's report has long reached the controller.
        Path log = report.resolve("workers/1/intervals.csv");
        Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> Files.exists(log) && Files.readAllLines(log).size() >= 3);
        ProcessHandle worker = workerProcess(report.resolve("workers/worker-1.log")).orElseThrow();
        worker.destroyForcibly();
        CliRunner.Result r = run.get();
        JsonNode s = r.json();
        JsonNode one = s.get("worker_rows").get(1);
        assertEquals("FAILED", one.get("state").asText());
        assertTrue(one.get("reason").asText().contains("connection lost") || one.get("reason").asText().contains("exited"),
                one.toString());
        assertTrue(one.get("lost_at_s").asDouble() > 0, one.toString());
        assertEquals(1, s.get("workers_lost").asInt(), s.toString());
        assertEquals(policy, s.get("on_worker_loss").asText());
        String output = live.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(output.contains("worker 1 FAILED"), output);
        assertEquals("DONE", s.get("worker_rows").get(0).get("state").asText());
        assertEquals("DONE", s.get("worker_rows").get(2).get("state").asText());
        long partial = s.get("worker_rows").get(1).get("ok").asLong();
        assertTrue(partial > 0, "the dead worker's intervals before it died are kept");
        assertEquals(s.get("worker_rows").get(0).get("ok").asLong() + partial + s.get("worker_rows").get(2).get("ok").asLong(),
                s.get("merged").get("ok").asLong());
        assertTrue(Files.readString(report.resolve("workers.csv")).contains("FAILED"));
        assertTrue(Files.exists(report.resolve("summary.json")));
        // A total of the smaller load breaks, whatever its figure; a percentile is judged as it is.
        JsonNode total = s.get("thresholds").get(0);
        assertFalse(total.get("passed").asBoolean(), total.toString());
        assertTrue(total.get("note").asText().contains("1 of 3 workers lost"), total.toString());
        assertTrue(s.get("thresholds").get(1).get("passed").asBoolean(), s.toString());
        assertEquals(1, r.exit(), "a lost worker fails the run, whatever its thresholds: " + r.err());
        if (policy.equals("abort")) {
            assertTrue(output.contains("controller: worker 1 lost: "), output);
            assertTrue(s.get("aborted").asText().startsWith("worker 1 lost: "), s.toString());
            assertTrue(s.get("merged").get("duration_s").asDouble() < 7, "stopped at the loss: " + s.get("merged"));
        } else {
            assertFalse(s.has("aborted"), s.toString());
            assertFalse(output.contains("stopping every worker"), output);
        }
    }

    @Test
    void aWindowedThresholdAbortsARunOfTwoWorkersOnTheMergedIntervals(@TempDir Path report) throws Exception {
        CliRunner.Result r = CliRunner.run("controller", "--workers", "2", "echo", "--connections", "4", "--rate",
                "400/s", "--warmup", "0s", "--duration", "60s", "--threshold", "p99[2s]<1us;abort;delay=2s",
                "--json", "--report", report.toString());
        assertEquals(99, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("merged").get("duration_s").asDouble() < 30, "stopped at the breach: " + s.get("merged"));
        assertTrue(s.get("aborted").asText().startsWith("threshold p99[2s]<1us;abort;delay=2s broken at "),
                s.toString());
        assertTrue(s.get("thresholds").get(0).get("first_broken_s").asDouble() >= 2, s.toString());
        assertEquals("DONE", s.get("worker_rows").get(0).get("state").asText(), "stopped, not lost");
        assertEquals("DONE", s.get("worker_rows").get(1).get("state").asText());
        assertEquals(0, s.get("workers_lost").asInt());
        JsonNode written = JSON.readTree(report.resolve("summary.json").toFile());
        assertEquals(s.get("aborted").asText(), written.get("aborted").asText());
        assertTrue(Files.readAllLines(report.resolve("intervals.csv")).size() >= 3);
    }

    /** Each worker follows its share of the stages; the merged run is the whole schedule, drawn in its report. */
    @Test
    void twoWorkersFollowTheirSharesOfARateScheduleAndMergeIntoTheWhole(@TempDir Path report) throws Exception {
        // Nothing for 1 s, up to 1k/s over 2 s (1,000 due), 1k/s for 2 s (2,000), down to 0 over 1 s (500): 3,500.
        CliRunner.Result r = CliRunner.run("controller", "--workers", "2", "--weights", "1,3", "echo",
                "--connections", "8", "--stages", "0:1s,1k:2s,1k:2s:step,0:1s", "--timeout", "15s", "--json",
                "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode merged = r.json().get("merged");
        long ok = merged.get("ok").asLong();
        assertEquals(0, merged.get("errors").asLong() + merged.get("bad").asLong(), merged.toString());
        assertTrue(ok >= 3_490 && ok <= 3_500, ok + " (expected: the 3,500 due)");
        long first = JSON.readTree(report.resolve("workers/0/summary.json").toFile()).get("ok").asLong();
        assertTrue(first >= 870 && first <= 875, first + " (expected: a quarter of 3,500)");
        assertEquals(6.0, merged.get("duration_s").asDouble(), 0.5);
        JsonNode config = JSON.readTree(report.resolve("config.json").toFile());
        assertEquals("0:1s,1000:2s,1000:2s:step,0:1s", config.get("stages").get("text").asText(), config.toString());
        List<String> intervals = Files.readAllLines(report.resolve("intervals.csv"));
        assertEquals("0", intervals.get(1).split(",")[3], "the first second is due nothing: " + intervals);
    }

    @Test
    void aStrangersReportsAreRefusedAndTheRunExitsOne() throws Exception {
        ByteArrayOutputStream live = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(live, true, StandardCharsets.UTF_8));
        try {
            strangerDuringARun(live);
        } finally {
            System.setErr(original);
        }
    }

    private void strangerDuringARun(ByteArrayOutputStream live) throws Exception {
        CompletableFuture<CliRunner.Result> run = CompletableFuture.supplyAsync(() -> CliRunner.run("controller",
                "--workers", "1", "echo", "--connections", "4", "--duration", "1s", "--json"));
        Pattern coordination = Pattern.compile("coordination on 127\\.0\\.0\\.1:(\\d+)");
        int port = Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
            Matcher m = coordination.matcher(live.toString(StandardCharsets.UTF_8));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        }, p -> p > 0);
        // The attack that once passed: a connection that never said hello reports a huge ok and negative failures.
        // Without the run's secret it is now refused before the controller even reads the report.
        try (RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), new SimpleMeterRegistry())) {
            RpcClient stranger = clients.connect(new InetSocketAddress("127.0.0.1", port)).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 3; i++) {
                IntervalReport report = FakeWorker.report(0, i).setOk(5_000_000).setBad(-1).setErrors(-1).build();
                FakeWorker.refused(stranger.call(Coordination.REPORT, report.toByteString(), Duration.ofSeconds(10)),
                        RpcStatus.UNAUTHENTICATED);
            }
        }
        CliRunner.Result r = run.get(120, TimeUnit.SECONDS);
        assertEquals(1, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(3, s.get("refused_inputs").asLong(), s.toString());
        assertEquals("DONE", s.get("worker_rows").get(0).get("state").asText());
        assertEquals(s.get("worker_rows").get(0).get("ok").asLong(), s.get("merged").get("ok").asLong());
        assertTrue(s.get("merged").get("ok").asLong() < 5_000_000, s.toString());
        assertTrue(s.get("problems").toString().contains("refused 3 worker.report calls"), s.toString());
    }

    /** The worker's process, by the pid its log names; only ever a child of this test's JVM. */
    private static Optional<ProcessHandle> workerProcess(Path log) throws Exception {
        Matcher m = Pattern.compile("\\(pid (\\d+)\\)").matcher(Files.readString(log));
        if (!m.find()) {
            return Optional.empty();
        }
        long pid = Long.parseLong(m.group(1));
        return ProcessHandle.current().children().filter(p -> p.pid() == pid).findFirst();
    }

    private static void addLog(Path hlog, Histogram into) throws Exception {
        try (FileInputStream in = new FileInputStream(hlog.toFile())) {
            HistogramLogReader reader = new HistogramLogReader(in);
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                into.add((Histogram) h);
            }
        }
    }
}
