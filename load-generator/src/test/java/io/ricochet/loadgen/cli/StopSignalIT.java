package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run stopped by SIGTERM or Ctrl-C in its own JVM: it prints its summary, writes every report file for what ran and
 * exits 143 or 130; while it runs, {@code --metrics-port} serves what it measured so far.
 */
@Timeout(120)
class StopSignalIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern METRICS_URL = Pattern.compile("^metrics (http://\\S+/metrics)$", Pattern.MULTILINE);
    private static final Pattern REQUESTS = Pattern.compile("^ricochet_loadgen_requests_sent_total (\\S+)$",
            Pattern.MULTILINE);

    @Test
    void sigtermMidRunLeavesACompleteReportAndExits143(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report");
        Process run = start(dir, "echo", "--duration", "60s", "--json", "--metrics-port", "0", "--report",
                report.toString());
        try {
            String metricsUrl = awaitMetricsUrl(run, dir);
            // The run's own endpoint shows requests once the first interval is in.
            HttpClient http = HttpClient.newHttpClient();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> requestsSent(http, metricsUrl) > 0);
            run.destroy(); // SIGTERM
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "still running after SIGTERM");
            assertEquals(143, run.exitValue(), Files.readString(dir.resolve("err.txt")));
        } finally {
            run.destroyForcibly();
        }
        JsonNode printed = JSON.readTree(Files.readString(dir.resolve("out.txt")));
        JsonNode written = JSON.readTree(report.resolve("summary.json").toFile());
        long requests = written.get("requests").asLong();
        assertTrue(requests > 0, written.toString());
        assertEquals(requests, printed.get("requests").asLong());
        assertEquals(requests, written.get("latency_us").get("count").asLong());
        assertTrue(written.get("duration_s").asDouble() < 60, written.toString());
        // Every interval that ran is in intervals.csv, and they add up to the summary.
        assertEquals(requests, intervalRequests(report.resolve("intervals.csv")));
        for (String file : List.of("config.json", "latency.hlog", "report.html")) {
            assertTrue(Files.size(report.resolve(file)) > 0, file);
        }
    }

    /** SIGKILL leaves no summary.json; report rebuilds one from the intervals and logs the run appended as it went. */
    @Test
    void sigkillMidRunLeavesWhatReportRebuildsTheSummaryFrom(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report");
        Process run = start(dir, "echo", "--duration", "60s", "--interval", "200ms", "--report", report.toString());
        try {
            Path intervals = report.resolve("intervals.csv");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Files.isRegularFile(intervals)
                    && Files.readAllLines(intervals).size() > 3);
            run.destroyForcibly(); // SIGKILL
            assertTrue(run.waitFor(30, TimeUnit.SECONDS), "still running after SIGKILL");
        } finally {
            run.destroyForcibly();
        }
        assertTrue(!Files.exists(report.resolve("summary.json")), "a killed run wrote no summary");
        Cli.Result redrawn = Cli.run("report", report.toString());
        assertEquals(0, redrawn.exit(), redrawn.err());
        assertTrue(redrawn.err().startsWith("summary.json missing (run did not finish): rebuilt from "), redrawn.err());
        assertTrue(redrawn.err().contains(" intervals and latency.hlog"), redrawn.err());
        assertEquals(report.resolve("report.html").toAbsolutePath().toString(), redrawn.out().strip());
        assertTrue(Files.readString(report.resolve("report.html")).contains("summary.json missing"));
    }

    @Test
    void ctrlCStopsASweepAfterItsCurrentStepAndExits130(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report");
        Process run = start(dir, "sweep", "--requests-per-step", "200000", "--max-size", "1024", "--report",
                report.toString());
        try {
            Path err = dir.resolve("err.txt");
            // The first step is under way once the embedded server has said where it listens.
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(err).contains("no --target"));
            new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start().waitFor();
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "still running after SIGINT");
            assertEquals(130, run.exitValue(), Files.readString(err));
        } finally {
            run.destroyForcibly();
        }
        JsonNode written = JSON.readTree(report.resolve("summary.json").toFile());
        assertTrue(written.get("verdict").asText().startsWith("stopped by a signal"), written.toString());
        assertTrue(written.get("steps").size() < 8, written.toString());
        assertTrue(Files.readString(dir.resolve("out.txt")).contains("stopped by a signal"));
    }

    @Test
    void sigtermOnTheControllerStopsItsWorkersAndKeepsWhatTheyMeasured(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report");
        Process run = start(dir, "controller", "--workers", "2", "echo", "--duration", "60s", "--json", "--report",
                report.toString());
        try {
            Path err = dir.resolve("err.txt");
            // Measuring once the merged progress lines come.
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Files.readString(err).contains("workers 2/2"));
            run.destroy(); // SIGTERM
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "still running after SIGTERM");
            assertEquals(143, run.exitValue(), Files.readString(err));
        } finally {
            run.destroyForcibly();
        }
        // The report's summary.json is what stdout has: the merged run's keys, the workers beside them.
        JsonNode merged = JSON.readTree(report.resolve("summary.json").toFile());
        assertTrue(merged.get("ok").asLong() > 0, merged.toString());
        assertTrue(merged.get("duration_s").asDouble() < 60, merged.toString());
        assertEquals(merged.get("ok").asLong(), JSON.readTree(Files.readString(dir.resolve("out.txt")))
                .get("merged").get("ok").asLong());
    }

    /**
     * The load generator in a JVM of its own, SIGINT at its default: a build started in the background by a shell
     * without job control ({@code .ci/run &}) ignores SIGINT, every process below it inherits that, and the JVM then
     * leaves Ctrl-C to nobody, as a terminal's would never be. {@code env --default-signal} (GNU coreutils) resets it.
     */
    private static Process start(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LoadGeneratorMain.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile()).start();
    }

    private static String awaitMetricsUrl(Process run, Path dir) {
        String[] url = new String[1];
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            String err = Files.readString(dir.resolve("err.txt"));
            assertTrue(run.isAlive(), "exited: " + err);
            Matcher m = METRICS_URL.matcher(err);
            url[0] = m.find() ? m.group(1) : null;
            return url[0] != null;
        });
        return url[0];
    }

    private static double requestsSent(HttpClient http, String url) throws IOException, InterruptedException {
        String body = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher m = REQUESTS.matcher(body);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static long intervalRequests(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        int column = List.of(lines.get(0).split(",")).indexOf("requests");
        return lines.stream().skip(1).mapToLong(line -> Long.parseLong(line.split(",")[column])).sum();
    }
}
