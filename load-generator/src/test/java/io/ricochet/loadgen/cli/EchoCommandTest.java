package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.transport.server.RicochetServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class EchoCommandTest {

    private static void assertConsistent(JsonNode s) {
        long ok = s.get("ok").asLong();
        assertEquals(s.get("requests").asLong(), ok + s.get("bad").asLong() + s.get("errors").asLong(),
                "requests = ok + bad + errors");
        assertTrue(ok > 0, "some replies verified");
        LatencyAssertions.assertWellFormed(s.get("latency_us"), ok);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "udp"})
    void aRunAgainstTheEmbeddedServerIsConsistentAndMatchesTheServersCount(String transport, @TempDir Path dir)
            throws Exception {
        Cli.Result r = Cli.run("echo", "--transport", transport, "--duration", "1500ms", "--connections", "4",
                "--pipeline", "4", "--size", "1..200", "--json", "--report", dir.toString(), "--interval", "500ms");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertConsistent(s);
        assertEquals(0, s.get("bad").asLong());
        assertEquals(0, s.get("errors").asLong());
        assertEquals("closed_loop", s.get("latency_kind").asText());
        assertEquals((double) s.get("ok").asLong(), s.get("server").get("frames_sent").asDouble(),
                "ok equals the server's frames.sent increase");

        assertEquals(s, Cli.summaryAsPrinted(dir), "summary.json is the printed summary");
        JsonNode config = Cli.JSON.readTree(dir.resolve("config.json").toFile());
        assertEquals(transport, config.get("transport").asText());
        assertEquals(4, config.get("connections").asInt());

        List<String> rows = Files.readAllLines(dir.resolve("intervals.csv"));
        assertEquals("time_s,connections,requests,ok,bad,errors,unexpected,qps,p50_us,p99_us,max_us,server_cpu,server_rss_bytes",
                rows.get(0));
        long okSum = rows.stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[3])).sum();
        assertEquals(s.get("ok").asLong(), okSum, "the intervals add up to the total");

        Histogram merged = new Histogram(3);
        try (HistogramLogReader reader = new HistogramLogReader(new File(dir.resolve("latency.hlog").toString()))) {
            Histogram h;
            while ((h = (Histogram) reader.nextIntervalHistogram()) != null) {
                merged.add(h);
            }
        }
        assertEquals(s.get("ok").asLong(), merged.getTotalCount(), "latency.hlog holds every recorded reply");
        assertEquals(s.get("latency_us").get("p99").asLong(), merged.getValueAtPercentile(99), 0.01 * merged.getValueAtPercentile(99) + 1);
    }

    /** How many requests an open-loop rate gives in a second is for LoadTimingIT: it depends on the machine. */
    @Test
    void openLoopReportsCorrectedAndServiceLatency() {
        // No warmup: replies in flight at its end would make the latency count differ from ok by a few.
        Cli.Result r = Cli.run("echo", "--duration", "1s", "--connections", "2", "--rate", "2000", "--warmup", "0s",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertConsistent(s);
        assertEquals("corrected", s.get("latency_kind").asText());
        assertTrue(s.hasNonNull("service_latency_us"), r.out());
        LatencyAssertions.assertWellFormed(s.get("service_latency_us"), s.get("ok").asLong());
        LatencyAssertions.assertCorrectedAtLeastService(s.get("latency_us"), s.get("service_latency_us"));
    }

    @Test
    void corruptedRepliesAreCountedBadAndFailTheRun() {
        try (RicochetServer server = FaultyServers.start(FaultyServers.corruptEveryHundredth())) {
            Cli.Result r = Cli.run("echo", "--target", FaultyServers.target(server), "--duration", "1s",
                    "--connections", "2", "--pipeline", "4", "--json");
            assertEquals(1, r.exit(), r.err());
            JsonNode s = r.json();
            assertConsistent(s);
            // Every 100th reply the server sent was corrupted, and each reply the client read was verified: one in
            // a hundred of them is bad however many there were (one either way for a reply still on the wire).
            long bad = s.get("bad").asLong();
            long answered = s.get("ok").asLong() + bad;
            assertTrue(bad > 0, r.out());
            assertEquals(answered / 100.0, bad, 1.0, "one bad reply in a hundred: " + r.out());
        }
    }

    @Test
    void aServerThatNeverAnswersGivesErrorsAfterTheTimeout() {
        try (RicochetServer server = FaultyServers.start(FaultyServers.silent())) {
            Cli.Result r = Cli.run("echo", "--target", FaultyServers.target(server), "--duration", "1500ms",
                    "--timeout", "300ms", "--connections", "2", "--json");
            assertEquals(1, r.exit(), r.err());
            JsonNode s = r.json();
            assertEquals(0, s.get("ok").asLong());
            assertEquals(0, s.get("bad").asLong());
            assertTrue(s.get("errors").asLong() >= 2, r.out());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--bogus", "--size=0", "--size=5..2", "--rate=fast", "--transport=sctp",
        "--target=nohostport", "--length-field=3", "--pipeline=0", "--insecure", "--tls-ca=ca.pem", "--client-key=k.pem",
        "--tls-provider=gnutls"})
    void aUsageErrorIsOneLineAndExitTwo(String flag) {
        Cli.Result r = Cli.run("echo", flag, "--duration", "1s");
        assertEquals(2, r.exit(), r.err());
        String[] lines = r.err().strip().split("\n");
        assertEquals(1, lines.length, r.err());
        assertTrue(lines[0].startsWith("load-generator: "), lines[0]);
        assertFalse(lines[0].contains("Exception"), lines[0]);
    }
}
