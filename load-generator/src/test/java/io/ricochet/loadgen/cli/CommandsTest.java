package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.commandline.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Each command runs briefly against the embedded server and its summary adds up. */
@Timeout(120)
class CommandsTest {

    private static void assertAddsUp(JsonNode s) {
        assertEquals(s.get("requests").asLong(), s.get("ok").asLong() + s.get("bad").asLong() + s.get("errors").asLong());
        assertTrue(s.get("ok").asLong() > 0, s.toString());
        assertEquals(0, s.get("bad").asLong());
    }

    @Test
    void rrKeepsOneRequestInFlightOnOneConnection() {
        Cli.Result r = Cli.run("rr", "--duration", "1s", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertAddsUp(s);
        assertEquals(1, s.get("connections").asInt());
        assertEquals((double) s.get("ok").asLong(), s.get("server").get("frames_sent").asDouble());
    }

    @Test
    void crrOpensOneConnectionPerTransaction() {
        Cli.Result r = Cli.run("crr", "--duration", "1s", "--concurrency", "2", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertAddsUp(s);
        assertTrue(s.get("connect_time_us").get("count").asLong() >= s.get("ok").asLong(), "a connect per transaction");
        assertEquals((double) s.get("ok").asLong(), s.get("server").get("frames_sent").asDouble());
    }

    @Test
    void massiveHoldsConnectionsAndReportsConnectTimes() {
        Cli.Result r = Cli.run("massive", "--connections", "500", "--connect-rate", "1000", "--per-connection-rate",
                "2/s", "--duration", "2s", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertAddsUp(s);
        assertEquals(500, s.get("connect_time_us").get("count").asLong(), "every connection established");
        assertEquals(0, s.get("connect_failures").asLong());
        assertEquals("corrected", s.get("latency_kind").asText());
    }

    @Test
    void udpStreamCountsVerifiedReplies() {
        Cli.Result r = Cli.run("udp-stream", "--duration", "1s", "--size", "100", "--rate", "5000", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(0, s.get("bad").asLong());
        long received = s.get("received").asLong();
        assertTrue(received > 0, s.toString());
        assertTrue(received <= s.get("sent").asLong(), s.toString());
        // UDP may drop on either side under load: the client can never verify more than the server answered.
        assertTrue(received <= s.get("server").get("frames_sent").asLong(), s.toString());
    }

    /** QUIC: each connection a QUIC connection with one stream, to the embedded server's QUIC port, every reply verified. */
    @Test
    void echoOverQuicVerifiesEveryReply() {
        Cli.Result r = Cli.run("echo", "--transport", "quic", "--connections", "3", "--pipeline", "4", "--duration",
                "1s", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertAddsUp(s);
        assertEquals(0, s.get("bad").asLong(), s.toString());
        assertTrue(s.get("ok").asLong() > 0, s.toString());
        assertTrue(s.get("ok").asLong() <= s.get("server").get("frames_sent").asLong(), "the client verified no more "
                + "than the QUIC port answered: " + s);
    }

    /**
     * QUIC_CRR: a QUIC connection, its handshake (full, resumed, or resumed with the request as 0-RTT early data),
     * one request and its verified reply, then the close, each time.
     */
    @ParameterizedTest
    @ValueSource(strings = {"--concurrency=2", "--tls-resume", "--early-data"})
    void crrOverQuicMakesAConnectionPerTransaction(String handshake) {
        Cli.Result r = Cli.run("crr", "--transport", "quic", handshake, "--duration", "1s", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(0, s.get("bad").asLong(), s.toString());
        assertTrue(s.get("ok").asLong() > 0, s.toString());
        assertEquals(s.get("ok").asLong(), s.get("connect_time_us").get("count").asLong(),
                "one connection per verified transaction: " + s);
        // Only --early-data opens streams before their handshake ends: every transaction after the first, which has
        // no ticket yet, at the default concurrency of 1.
        JsonNode early = s.get("early_data");
        assertTrue(early.get("connections").asLong() >= s.get("ok").asLong(), s.toString());
        if (handshake.equals("--early-data")) {
            assertTrue(early.get("early").asLong() > 0, s.toString());
        } else {
            assertEquals(0, early.get("early").asLong(), s.toString());
        }
    }

    @Test
    void udpStreamSearchEndsAtTheClientsRateWhenItLosesWithinTheBound() {
        // A bound of 100% passes the unlimited first trial, so the search is one trial whatever this machine's loss.
        Cli.Result r = Cli.run("udp-stream", "--search", "--max-loss", "100%", "--duration", "300ms", "--linger",
                "100ms", "--size", "100", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(1, s.get("trials").size(), s.toString());
        assertTrue(s.get("client_limited").asBoolean(), s.toString());
        JsonNode trial = s.get("trials").get(0);
        assertEquals(trial.get("received_pps").asDouble(), s.get("zero_loss_pps").asDouble(), s.toString());
        assertTrue(trial.get("received").asLong() > 0, s.toString());
        // The server's own counts tell where datagrams were lost: it read no more than was sent, and the client
        // verified no more than it sent back.
        JsonNode server = trial.get("server");
        assertTrue(server.get("frames_received").asLong() <= trial.get("sent").asLong(), s.toString());
        assertTrue(trial.get("received").asLong() <= server.get("frames_sent").asLong(), s.toString());
        assertTrue(server.get("frames_sent").asLong() <= server.get("frames_received").asLong(), s.toString());
    }

    @Test
    void udpStreamSearchRefusesAFixedRate() {
        Cli.Result r = Cli.run("udp-stream", "--search", "--rate", "1000");
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        assertEquals("load-generator: --rate and --search: the search sets the rate (expected: one of them) (see --help)",
                r.err().strip());
    }

    @Test
    void udpStreamWritesTheUsualReportWhoseIntervalsAddUpToTheSummary(@TempDir Path dir) throws Exception {
        Cli.Result r = Cli.run("udp-stream", "--duration", "1s", "--interval", "250ms", "--size", "10", "--rate", "2000",
                "--json", "--report", dir.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(s, Cli.summaryAsPrinted(dir), "summary.json is the printed summary");
        assertEquals("udp-stream", Cli.JSON.readTree(dir.resolve("config.json").toFile()).get("command").asText());
        List<String> rows = Files.readAllLines(dir.resolve("intervals.csv"));
        assertTrue(rows.size() >= 3, rows.toString());
        long ok = rows.stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[3])).sum();
        assertEquals(s.get("received").asLong(), ok, "every received datagram is in exactly one interval");
        assertTrue(Files.exists(dir.resolve("latency.hlog")));
    }

    @Test
    void sweepVerifiesEveryStep(@TempDir Path dir) throws Exception {
        Cli.Result r = Cli.run("sweep", "--max-size", "65536", "--requests-per-step", "50", "--counts", "100..200",
                "--json", "--report", dir.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode steps = r.json().get("steps");
        assertEquals(15 + 2, steps.size(), "128..1024 by 128, 2..4 KiB, 8..64 KiB, then two count steps");
        assertEquals(65536, steps.get(14).get("size").asInt());
        for (JsonNode step : steps) {
            assertEquals(step.get("requests").asLong(), step.get("ok").asLong(), step.toString());
        }
        assertEquals(200, steps.get(16).get("requests").asLong());
        assertEquals(r.json(), Cli.summaryAsPrinted(dir));
    }

    /**
     * The ramp's own logic, whichever steps this machine passes: it doubles from the start rate while steps
     * pass, stops at the first that misses, and reports the last that passed. That a step passes at all is a
     * matter of speed, for LoadTimingIT.
     */
    @Test
    void rampDoublesUntilAStepMissesAndReportsTheLastThatPassed() {
        Cli.Result r = Cli.run("ramp", "--duration", "500ms", "--warmup-step", "500ms", "--start-rate", "500",
                "--max-rate", "2000", "--slo", "1s", "--refine", "0", "--json");
        JsonNode s = r.json();
        JsonNode steps = s.get("steps");
        assertTrue(steps.size() >= 1 && steps.size() <= 3, "500, 1000 and 2000/s at most: " + s);
        double lastPassed = 0;
        for (int i = 0; i < steps.size(); i++) {
            JsonNode step = steps.get(i);
            assertEquals(i + 1, step.get("step").asInt(), step.toString());
            assertEquals(500.0 * (1 << i), step.get("target_rate").asDouble(), step.toString());
            assertEquals(step.get("requests").asLong(), step.get("ok").asLong() + step.get("bad").asLong()
                    + step.get("errors").asLong(), step.toString());
            boolean passed = step.get("passed").asBoolean();
            if (passed) {
                assertEquals(0, step.get("bad").asLong() + step.get("errors").asLong(), step.toString());
                assertTrue(step.get("p99_us").asLong() <= 1_000_000, "a passed step met the 1 s SLO: " + step);
                lastPassed = step.get("target_rate").asDouble();
            } else {
                assertEquals(steps.size() - 1, i, "no step after the first that missed: " + s);
            }
        }
        if (lastPassed > 0) {
            assertEquals(0, r.exit(), r.err());
            assertEquals(lastPassed, s.get("knee_rate").asDouble(), s.toString());
        } else {
            assertEquals(1, r.exit(), "no rate met the SLO: " + r.err());
            assertTrue(s.get("knee_rate").isNull(), s.toString());
        }
    }

    @Test
    void sweepSizesFollowLibonev() {
        assertEquals(java.util.List.of(128, 256, 384, 512, 640, 768, 896, 1024, 2048, 3072, 4096, 8192, 16384),
                SweepCommand.sizes(16384));
        assertEquals(16 * 1024 * 1024, SweepCommand.sizes(16 * 1024 * 1024).get(SweepCommand.sizes(16 * 1024 * 1024).size() - 1));
    }

    @Test
    void reportRedrawsThePageOfADirectoryAndRefusesOneWithoutASummary(@TempDir Path dir) throws Exception {
        Cli.Result missing = Cli.run("report", dir.toString());
        assertEquals(ExitCodes.USAGE, missing.exit());
        assertTrue(missing.err().contains("no summary.json, nor intervals.csv to rebuild one from"), missing.err());
        assertEquals(1, missing.err().strip().lines().count(), "one line: " + missing.err());
        Cli.Result run = Cli.run("rr", "--duration", "1s", "--report", dir.toString());
        assertEquals(0, run.exit(), run.err());
        java.nio.file.Files.delete(dir.resolve("report.html"));
        Cli.Result again = Cli.run("report", dir.toString());
        assertEquals(0, again.exit(), again.err());
        assertEquals(dir.resolve("report.html").toAbsolutePath().toString(), again.out().strip());
        assertTrue(java.nio.file.Files.size(dir.resolve("report.html")) > 10_000);
    }

    /**
     * A run killed with SIGKILL writes no summary.json: report rebuilds one from the intervals and .hlog logs it
     * appended as it went, says so on stderr, and draws the page ({@code StopSignalIT} kills a real one).
     */
    @Test
    void reportRebuildsTheSummaryOfARunThatDidNotFinish(@TempDir Path dir) throws Exception {
        Cli.Result run = Cli.run("rr", "--duration", "1s", "--interval", "250ms", "--report", dir.toString(), "--json");
        assertEquals(0, run.exit(), run.err());
        // What a killed run leaves: its appended files, not the ones written at its end.
        Files.delete(dir.resolve("summary.json"));
        Files.delete(dir.resolve("report.html"));
        long ok = run.json().get("ok").asLong();
        int intervals = Files.readAllLines(dir.resolve("intervals.csv")).size() - 1;

        Cli.Result report = Cli.run("report", dir.toString());
        assertEquals(0, report.exit(), report.err());
        assertEquals(dir.resolve("report.html").toAbsolutePath().toString(), report.out().strip());
        assertEquals("summary.json missing (run did not finish): rebuilt from " + intervals
                + " intervals and latency.hlog", report.err().strip());
        String page = Files.readString(dir.resolve("report.html"));
        assertTrue(page.contains("\"ok\" : " + ok + ","), "the rebuilt ok is the run's: " + ok);
        assertTrue(page.contains("rebuilt from " + intervals + " intervals"), "the page says it was rebuilt");
        assertTrue(!Files.exists(dir.resolve("summary.json")), "no summary.json is made up");
    }

    @Test
    void compareNeedsTwoReportDirectories(@TempDir Path dir) {
        Cli.Result one = Cli.run("compare", dir.toString());
        assertEquals(ExitCodes.USAGE, one.exit());
        Cli.Result empty = Cli.run("compare", dir.toString(), dir.toString());
        assertEquals(ExitCodes.USAGE, empty.exit());
        assertTrue(empty.err().contains("it has no summary.json"), empty.err());
    }

    /** Figures of runs on another version, JVM or core count are not like for like: compare says so. */
    @Test
    void compareWarnsWhenRunsDifferInVersionJvmOrCores(@TempDir Path dir) throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        Files.writeString(a.resolve("summary.json"), "{\"qps\": 1, \"run\": {\"ricochet\": {\"version\": \"0.1.0\", "
                + "\"commit\": \"aaaaaaa\"}, \"jvm\": {\"vendor\": \"X\", \"version\": \"17\"}, \"host\": {\"cores\": 2}}}");
        Files.writeString(b.resolve("summary.json"), "{\"qps\": 2, \"run\": {\"ricochet\": {\"version\": \"0.2.0\", "
                + "\"commit\": \"bbbbbbb\"}, \"jvm\": {\"vendor\": \"X\", \"version\": \"17\"}, \"host\": {\"cores\": 8}}}");
        Cli.Result r = Cli.run("compare", a.toString(), b.toString(), "--out", dir.resolve("c.html").toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("warning: runs differ in Ricochet: " + a + " 0.1.0 (aaaaaaa), " + b + " 0.2.0 (bbbbbbb)"),
                r.err());
        assertTrue(r.err().contains("warning: runs differ in cores: " + a + " 2, " + b + " 8"), r.err());
        assertFalse(r.err().contains("differ in JVM"), r.err());
        assertTrue(Files.readString(dir.resolve("c.html")).contains("runs differ in Ricochet"), "the page says it too");
    }

    /** A baseline gate: each margin's verdict per run after the first, and 99 when one breaks. */
    @Test
    void aWindowedThresholdAbortsARunAloneAndExits99WithItsReport(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("r");
        Cli.Result r = Cli.run("echo", "--connections", "2", "--rate", "200", "--duration", "30s", "--warmup", "0s",
                "--threshold", "p99[1s]<1us;abort", "--report", report.toString(), "--json");
        assertEquals(99, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("duration_s").asDouble() < 15, "stopped at the breach: " + s);
        assertTrue(s.get("aborted").asText().startsWith("threshold p99[1s]<1us;abort broken at "), s.toString());
        assertTrue(s.get("thresholds").get(0).get("first_broken_s").asDouble() >= 1, s.toString());
        JsonNode written = io.ricochet.loadgen.report.ReportWriter.JSON.readTree(report.resolve("summary.json").toFile());
        assertEquals(s.get("aborted"), written.get("aborted"));
        assertTrue(Files.exists(report.resolve("report.html")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "p99[5s]<1ms|a window no longer than the run's duration, 3s",
        "p99[100ms]<1ms|a window of at least the interval, 1s",
        "p99<1ms;delay=1s|delay= without abort",
        "p99[1s]<1ms;halt|option 'halt' (expected abort or delay=DURATION"})
    void aThresholdThatCannotBeJudgedIsOneLineAndExitTwo(String threshold, String message) {
        Cli.Result r = Cli.run("echo", "--duration", "3s", "--threshold", threshold);
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void compareFailIfGatesOnTheBaseline(@TempDir Path dir) throws Exception {
        Path base = Files.createDirectories(dir.resolve("base"));
        Path run = Files.createDirectories(dir.resolve("run"));
        Files.writeString(base.resolve("summary.json"), "{\"qps\": 1000, \"latency_us\": {\"p99\": 1200}}");
        Files.writeString(run.resolve("summary.json"), "{\"qps\": 960, \"latency_us\": {\"p99\": 1500}}");
        String page = dir.resolve("c.html").toString();
        Cli.Result slower = Cli.run("compare", base.toString(), run.toString(), "--out", page, "--fail-if", "p99>+10%",
                "--fail-if", "qps<-5%");
        assertEquals(99, slower.exit(), slower.err());
        assertTrue(slower.out().contains(run + ": fail-if p99>+10%: broken (p99 1200 -> 1500, +25.0%)"), slower.out());
        assertTrue(slower.out().contains(run + ": fail-if qps<-5%: passed (qps 1000 -> 960, -4.0%)"), slower.out());
        Cli.Result within = Cli.run("compare", base.toString(), run.toString(), "--out", page, "--fail-if", "p99>+30%");
        assertEquals(0, within.exit(), within.err());
        Cli.Result unmeasured = Cli.run("compare", base.toString(), run.toString(), "--out", page, "--fail-if",
                "loss>+1%");
        assertEquals(99, unmeasured.exit(), unmeasured.out());
        assertTrue(unmeasured.out().contains("fail-if loss>+1%: broken (not measured by the baseline)"), unmeasured.out());
        Cli.Result bad = Cli.run("compare", base.toString(), run.toString(), "--out", page, "--fail-if", "p98>+10%");
        assertEquals(ExitCodes.USAGE, bad.exit());
        assertTrue(bad.err().contains("invalid option value: --fail-if: 'p98>+10%': unknown metric p98"), bad.err());
        assertEquals(1, bad.err().strip().lines().count(), bad.err());
        Cli.Result unsigned = Cli.run("compare", base.toString(), run.toString(), "--out", page, "--fail-if", "p99>10%");
        assertEquals(ExitCodes.USAGE, unsigned.exit());
        assertTrue(unsigned.err().contains("(expected METRIC>+N% or METRIC<-N%"), unsigned.err());
    }

    /** As k6: a broken threshold exits 99, and the summary (table or JSON, and summary.json) says which. */
    @Test
    void aBrokenThresholdExits99AndTheSummarySaysWhich(@TempDir Path dir) throws Exception {
        Cli.Result kept = Cli.run("rr", "--duration", "1s", "--threshold", "errors==0", "--threshold", "qps>1");
        assertEquals(0, kept.exit(), kept.err());
        assertTrue(kept.out().contains("threshold errors==0: passed (errors = 0)"), kept.out());
        Cli.Result broken = Cli.run("rr", "--duration", "1s", "--threshold", "qps>1M", "--threshold", "bad==0", "--json",
                "--report", dir.toString());
        assertEquals(99, broken.exit(), broken.err());
        JsonNode thresholds = broken.json().get("thresholds");
        assertEquals("qps>1M", thresholds.get(0).get("expression").asText());
        assertEquals(false, thresholds.get(0).get("passed").asBoolean());
        assertEquals(true, thresholds.get(1).get("passed").asBoolean());
        JsonNode saved = Cli.JSON.readTree(dir.resolve("summary.json").toFile()).get("thresholds");
        assertEquals(thresholds, saved);
        Cli.Result usage = Cli.run("rr", "--threshold", "p99<2kb");
        assertEquals(ExitCodes.USAGE, usage.exit());
        assertTrue(usage.err().contains("'p99<2kb': unit kb"), usage.err());
    }
}
