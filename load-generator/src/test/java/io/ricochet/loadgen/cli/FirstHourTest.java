package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.commandline.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rough edges a new user hit in the first hour, each shown fixed (FailureReasonsTest has the failed runs). */
class FirstHourTest {

    @Test
    void aSweepWithNothingToDoIsAUsageError() {
        Cli.Result below = Cli.run("sweep", "--max-size", "100");
        assertEquals(ExitCodes.USAGE, below.exit(), below.out());
        assertTrue(below.err().contains("nothing to sweep: --max-size 100 is below the first size step, 128"),
                below.err());
        assertFalse(below.out().contains("all steps verified"), below.out());

        Cli.Result none = Cli.run("sweep", "--no-sizes");
        assertEquals(ExitCodes.USAGE, none.exit(), none.out());
        assertTrue(none.err().contains("nothing to sweep: --no-sizes without --counts"), none.err());
    }

    @Test
    void theReportHelpOfSweepSaysWhatItWrites(@TempDir Path dir) throws Exception {
        Cli.Result help = Cli.run("sweep", "--help");
        assertTrue(help.out().replaceAll("\\s+", " ").contains("summary.json and report.html; and for a run measured "
                + "interval by interval (not sweep or ramp)"), help.out());
        Path report = dir.resolve("r");
        Cli.Result r = Cli.run("sweep", "--max-size", "128", "--requests-per-step", "10", "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        try (Stream<Path> files = Files.list(report)) {
            assertEquals(Set.of("summary.json", "report.html"),
                    files.map(f -> f.getFileName().toString()).collect(Collectors.toSet()));
        }
    }

    @Test
    void registersCrossCheckSaysACycleIsFourRequests() {
        Cli.Result r = Cli.run("register", "--pairs", "2", "--cycles", "100");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("cross-check: server RPC requests grew by 400, client received 100 cycles of 4 "
                + "requests (register, call, unregister, call_missing) = 400"), r.out());
    }

    @Test
    void aScrapeUrlThatIsNotOneIsAUsageErrorNamingTheFlag() {
        Cli.Result r = Cli.run("echo", "--scrape", "notaurl", "--duration", "1s");
        assertEquals(ExitCodes.USAGE, r.exit(), r.out());
        assertTrue(r.err().contains("--scrape") && r.err().contains("'notaurl' (expected: an http:// or https:// URL"),
                r.err());
    }

    @Test
    void udpSaysItsPipelineRunsAsOne() {
        Cli.Result r = Cli.run("echo", "--transport", "udp", "--pipeline", "16", "--duration", "300ms",
                "--connections", "2");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("note: --pipeline 16 runs as 1 over UDP"), r.err());
        Cli.Result tcp = Cli.run("echo", "--pipeline", "16", "--duration", "300ms", "--connections", "2");
        assertFalse(tcp.err().contains("note: --pipeline"), tcp.err());
    }

    @Test
    void udpStreamSaysWhenItSentLessThanAsked() {
        // One socket cannot send ten million datagrams a second here.
        Cli.Result r = Cli.run("udp-stream", "--rate", "10000000", "--duration", "500ms");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("datagrams/s of the 10000000 asked (--rate): the client could not send faster"),
                r.out());
        Cli.Result json = Cli.run("udp-stream", "--rate", "10000000", "--duration", "500ms", "--json");
        assertEquals(10_000_000, json.json().get("rate_pps").asDouble());
        assertTrue(json.json().get("sent_pps").asDouble() < 9_500_000, json.out());
    }

    @Test
    void openLoopWarmsUpByDefaultAndSaysSo(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("open");
        Cli.Result open = Cli.run("echo", "--rate", "2000", "--duration", "300ms", "--report", report.toString());
        assertEquals(0, open.exit(), open.err());
        assertTrue(open.err().contains("note: open loop warms up for 2s first, not counted"), open.err());
        assertEquals(2.0, Cli.JSON.readTree(report.resolve("config.json").toFile()).get("warmup_s").asDouble());

        Cli.Result told = Cli.run("echo", "--rate", "2000", "--warmup", "0s", "--duration", "300ms");
        assertFalse(told.err().contains("note: open loop warms up"), told.err());
        Cli.Result closed = Cli.run("echo", "--duration", "300ms");
        assertFalse(closed.err().contains("note: open loop warms up"), closed.err());
    }

    @Test
    void theEmbeddedServersLineSaysItsCpuAndRssAreTheSharedJvms() {
        try (EmbeddedTarget server = new EmbeddedTarget(io.ricochet.config.LengthField.TWO, 4094, 1,
                java.time.Duration.ofSeconds(30), false, null, null, null)) {
            assertTrue(server.describe().endsWith(
                    "; it shares this JVM, so srv_cpu and srv_rss are the client's and the server's together"),
                    server.describe());
        }
    }
}
