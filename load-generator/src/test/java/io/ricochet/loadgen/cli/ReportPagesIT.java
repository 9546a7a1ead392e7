package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of report.html, opened in headless Chromium: no error on the page, every chart drawn with its series and
 * one point per interval, step, client or worker of the run, no tick label outside its axis or the canvas, and
 * screenshots of the page and of its charts under {@code target/report-screenshots}.
 */
@Timeout(300)
class ReportPagesIT {
    private static final Path SCREENSHOTS = Path.of("target", "report-screenshots");

    @TempDir
    Path temp;

    private HeadlessChromium.Rendered open(Path report, String name) throws Exception {
        Path page = report.resolve("report.html");
        assertTrue(Files.isRegularFile(page), "report.html written");
        HeadlessChromium chromium = new HeadlessChromium(Files.createDirectories(temp.resolve("profile-" + name)));
        HeadlessChromium.Rendered rendered = chromium.render(page);
        assertEquals("", rendered.errors(), "no error while drawing " + name);
        for (JsonNode chart : rendered.charts()) {
            for (JsonNode axis : chart.get("axes")) {
                assertEquals(0, axis.get("clipped").size(), name + " " + chart.get("id") + ": labels cut: " + axis);
            }
        }
        chromium.screenshot(page, SCREENSHOTS.resolve(name + ".png").toAbsolutePath());
        return rendered;
    }

    /** A screenshot of only the elements of {@code report}'s page that match {@code keep}. */
    private void shoot(Path report, String name, int height, String... keep) throws Exception {
        HeadlessChromium chromium = new HeadlessChromium(Files.createDirectories(temp.resolve("profile-" + name)));
        chromium.screenshot(report.resolve("report.html"), SCREENSHOTS.resolve(name + ".png").toAbsolutePath(), height,
                keep);
    }

    /** The charts share one time axis: the same x range as {@code first}'s. */
    private static void sameTimeAxis(HeadlessChromium.Rendered page, String first, String... others) {
        JsonNode x = page.axis(first, 2);
        for (String other : others) {
            JsonNode y = page.axis(other, 2);
            assertEquals(x.get("min").asDouble(), y.get("min").asDouble(), other);
            assertEquals(x.get("max").asDouble(), y.get("max").asDouble(), other);
        }
    }

    private static void hasPoints(HeadlessChromium.Rendered page, String chart, int points, String... series) {
        JsonNode c = page.chart(chart);
        assertEquals(List.of(series), Cli.JSON.convertValue(c.get("series"), List.class), chart);
        for (JsonNode n : c.get("points")) {
            assertEquals(points, n.asInt(), chart + ": " + c);
        }
    }

    private static int intervals(Path report) throws Exception {
        return Files.readAllLines(report.resolve("intervals.csv")).size() - 1;
    }

    @Test
    void anOpenLoopEchoRunHasItsRateLatencySpectraAndServer() throws Exception {
        Path report = temp.resolve("echo");
        Cli.Result r = Cli.run("echo", "--rate", "2000/s", "--duration", "3s", "--threshold", "p99<60s",
                "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("report: " + report.resolve("report.html").toAbsolutePath()), r.err());
        HeadlessChromium.Rendered page = open(report, "echo");
        int n = intervals(report);
        hasPoints(page, "chart-throughput", n, "QPS", "errors", "bad");
        hasPoints(page, "chart-latency", n, "p50", "p90", "p99", "max", "service p99");
        assertTrue(page.dom().contains("p99 (from the actual send) is dashed</div>"), "the note says which is dashed");
        assertEquals(3, page.axis("chart-latency", 3).get("distr").asInt(), "latency on a log axis");
        // The warmup, not measured, is shaded before the first interval at 0 s.
        assertEquals("warmup 2 s, not measured", page.chart("chart-latency").get("band").asText());
        assertEquals(-2.0, page.axis("chart-latency", 2).get("min").asDouble());
        hasPoints(page, "chart-server-cpu", n, "server CPU %");
        hasPoints(page, "chart-server-rss", n, "server RSS MB");
        hasPoints(page, "chart-server-connections", n, "connections");
        sameTimeAxis(page, "chart-latency", "chart-throughput", "chart-server-cpu", "chart-server-rss",
                "chart-server-connections");
        JsonNode spectrum = page.chart("chart-spectrum");
        assertTrue(spectrum.get("points").get(0).asInt() > 10, spectrum.toString());
        assertTrue(page.chart("chart-connect").get("points").get(0).asInt() > 0);
        shoot(report, "echo-throughput", 420, "#chart-throughput");
        shoot(report, "echo-latency", 420, "#chart-latency");
        shoot(report, "echo-spectrum", 420, "#chart-spectrum");
        shoot(report, "echo-server", 900, "#chart-server-cpu", "#chart-server-rss", "#chart-server-connections");
    }

    /**
     * What a server sends and what a worker says reach the page as text: a reply of {@code <!--<script>} (the echo
     * server reverses the payload) and worker JVM arguments of every dangerous sequence leave every chart drawn.
     */
    @Test
    void aServersReplyAndAWorkersMetadataCannotBreakThePage() throws Exception {
        Path report = temp.resolve("hostile");
        String hostile = "-Dx=</script><!--<script>\u2028\u2029/*DATA*/";
        Cli.Result r = Cli.run("controller", "--workers", "2", "--worker-jvm-args", hostile, "echo", "--rate",
                "500/s", "--duration", "2s", "--payload", ">tpircs<--!<", "--expect", "equals:zz", "--report",
                report.toString());
        assertTrue(Files.isRegularFile(report.resolve("report.html")), r.err());
        JsonNode summary = Cli.JSON.readTree(report.resolve("summary.json").toFile());
        assertTrue(summary.get("bad").asLong() > 0, "every reply is <!--<script>, not zz: " + summary);
        HeadlessChromium.Rendered page = open(report, "hostile");
        hasPoints(page, "chart-throughput", intervals(report), "QPS", "errors", "bad");
        hasPoints(page, "chart-workers", 2, "requests");
        assertTrue(page.dom().contains("&lt;!--&lt;script&gt;"), "the reply is shown as text");
    }

    @Test
    void aSweepHasLibonevsFourFigures() throws Exception {
        Path report = temp.resolve("sweep");
        Cli.Result r = Cli.run("sweep", "--max-size", "512", "--requests-per-step", "200", "--counts", "100..300",
                "--count-size", "256", "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        HeadlessChromium.Rendered page = open(report, "sweep");
        hasPoints(page, "chart-sweep-size-qps", 4, "QPS");
        hasPoints(page, "chart-sweep-size-mbps", 4, "MB/s");
        hasPoints(page, "chart-sweep-count-qps", 3, "QPS");
        hasPoints(page, "chart-sweep-count-mbps", 3, "MB/s");
    }

    @Test
    void aRampHasRateAgainstP99WithTheKnee() throws Exception {
        Path report = temp.resolve("ramp");
        Cli.Result r = Cli.run("ramp", "--start-rate", "500", "--max-rate", "2000", "--duration", "1s",
                "--warmup-step", "0s", "--refine", "0", "--slo", "1s", "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode steps = Cli.JSON.readTree(report.resolve("summary.json").toFile()).get("steps");
        HeadlessChromium.Rendered page = open(report, "ramp");
        JsonNode ramp = page.chart("chart-ramp");
        assertEquals(steps.size(), ramp.get("points").get(0).asInt(), ramp.toString());
        assertEquals(1, ramp.get("points").get(1).asInt(), "one knee: " + ramp);
    }

    @Test
    void anRpcRunHasAChartOfItsClients() throws Exception {
        Path report = temp.resolve("rpc");
        Cli.Result r = Cli.run("rpc", "--clients", "3", "--requests", "3000", "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        HeadlessChromium.Rendered page = open(report, "rpc");
        hasPoints(page, "chart-clients", 3, "QPS");
        hasPoints(page, "chart-throughput", intervals(report), "QPS", "errors", "bad");
    }

    @Test
    void aDistributedRunHasItsWorkers() throws Exception {
        Path report = temp.resolve("distributed");
        Cli.Result r = Cli.run("controller", "--workers", "2", "echo", "--rate", "1000/s", "--duration", "3s",
                "--threshold", "errors==0", "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("threshold errors==0: passed (errors = 0)"), "the controller checks the merged run");
        assertTrue(r.err().contains("report: " + report.resolve("report.html").toAbsolutePath()), r.err());
        HeadlessChromium.Rendered page = open(report, "distributed");
        hasPoints(page, "chart-workers", 2, "requests");
        hasPoints(page, "chart-workers-p99", 2, "p99");
        hasPoints(page, "chart-throughput", intervals(report), "QPS", "errors", "bad");
        for (String chart : List.of("chart-workers", "chart-workers-p99")) {
            // Workers are categories: a tick at each index and none between, with room for half a bar each side.
            JsonNode x = page.axis(chart, 2);
            assertEquals(List.of("0", "1"), Cli.JSON.convertValue(x.get("ticks"), List.class), chart + ": " + x);
            assertEquals(List.of(0, 1), Cli.JSON.convertValue(x.get("splits"), List.class), chart + ": " + x);
            assertTrue(x.get("min").asDouble() <= -0.5 && x.get("max").asDouble() >= 1.5, chart + ": " + x);
        }
        // The shard plan is a table: a row per worker, its rates as numbers, a connect rate of 0 as what it means.
        assertTrue(page.dom().contains("<table id=\"shard-plan\">"), "the shard plan's table");
        assertTrue(page.dom().contains(">500/s</td>"), "half the rate each");
        assertTrue(page.dom().contains("all at once"), "connect-rate 0");
        assertFalse(page.dom().contains("<td class=\"l\">[[\"echo\""), "the shard plan not as JSON");
        shoot(report, "distributed-workers", 640, "#chart-workers", "#chart-workers-p99");
        shoot(report, "distributed-shard-plan", 200, "#shard-plan");
    }

    /** Closed loop, the latency is the service latency: no dashed service p99 is drawn, and none is said to be. */
    @Test
    void aClosedLoopDistributedRunShadesItsStartUp() throws Exception {
        Path report = temp.resolve("closed-loop");
        Cli.Result r = Cli.run("controller", "--workers", "2", "echo", "--duration", "3s", "--report",
                report.toString());
        assertEquals(0, r.exit(), r.err());
        HeadlessChromium.Rendered page = open(report, "closed-loop");
        hasPoints(page, "chart-latency", intervals(report), "p50", "p90", "p99", "max");
        assertFalse(page.dom().contains("dashed</div>"), "no dashed series to speak of");
        assertEquals(3, page.axis("chart-latency", 3).get("distr").asInt(), "latency on a log axis");
        assertEquals("first interval: no warmup, start-up included", page.chart("chart-latency").get("band").asText());
        shoot(report, "closed-loop-latency", 420, "#chart-latency");
    }

    @Test
    void compareOverlaysTheRunsAndSaysHowEachDiffersFromTheFirst() throws Exception {
        Path slow = temp.resolve("one-connection");
        Path fast = temp.resolve("four-connections");
        assertEquals(0, Cli.run("echo", "--connections", "1", "--duration", "2s", "--report", slow.toString()).exit());
        assertEquals(0, Cli.run("echo", "--connections", "4", "--duration", "2s", "--report", fast.toString()).exit());
        Path page = temp.resolve("compare").resolve("compare.html");
        Cli.Result r = Cli.run("compare", slow.toString(), fast.toString(), "--out", page.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(page.toAbsolutePath().toString(), r.out().strip());
        HeadlessChromium chromium = new HeadlessChromium(Files.createDirectories(temp.resolve("profile-compare")));
        HeadlessChromium.Rendered rendered = chromium.render(page);
        assertEquals("", rendered.errors());
        JsonNode spectrum = rendered.chart("chart-compare-spectrum");
        assertEquals(List.of(slow.toString(), fast.toString()), Cli.JSON.convertValue(spectrum.get("series"), List.class));
        JsonNode qps = rendered.chart("chart-compare-qps");
        assertEquals(intervals(slow), qps.get("points").get(0).asInt(), qps.toString());
        assertEquals(intervals(fast), qps.get("points").get(1).asInt(), qps.toString());
        chromium.screenshot(page, SCREENSHOTS.resolve("compare.png").toAbsolutePath());
    }
}
