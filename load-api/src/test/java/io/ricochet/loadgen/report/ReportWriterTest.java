package io.ricochet.loadgen.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.scrape.ServerSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's files hold what was measured as a reader of JSON or CSV expects it. */
class ReportWriterTest {

    private static List<Map<String, String>> readCsv(Path file) throws Exception {
        try (MappingIterator<Map<String, String>> rows = new CsvMapper().readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(file.toFile())) {
            return rows.readAll();
        }
    }

    @Test
    void aCsvCellWithQuotesCommasOrNewlinesReadsBackAsItWas(@TempDir Path dir) throws Exception {
        String reason = "exit 2: \"boom\", then\nmore";
        try (ReportWriter report = new ReportWriter(dir, Map.of("latency_kind", "closed_loop"), 0)) {
            report.csv("workers.csv", WorkerRow.COLUMNS, List.of(
                    new WorkerRow(0, "FAILED", "pod-a,b", 10, 9, 0, 1, 3, 250, 2, reason, 1.5),
                    new WorkerRow(1, "DONE", "127.0.0.1", 10, 10, 0, 0, 3, 200, 0, "", null)));
        }
        List<Map<String, String>> rows = readCsv(dir.resolve("workers.csv"));
        assertEquals(2, rows.size());
        assertEquals(reason, rows.get(0).get("reason"));
        assertEquals("pod-a,b", rows.get(0).get("host"));
        assertEquals("250", rows.get(0).get("p99_us"));
        assertEquals("2", rows.get(0).get("exit_code"));
        assertEquals(WorkerRow.COLUMNS, List.copyOf(rows.get(1).keySet()));
    }

    @Test
    void figuresAreJsonNumbersAndWhatWasNotMeasuredIsNull() throws Exception {
        JsonNode server = ReportWriter.JSON.valueToTree(
                new ServerSummary("http://x/metrics", Double.NaN, 1.4256128E8, 10, 0.0, 0.0, Double.NaN));
        assertTrue(server.get("cpu_max").isNull(), server.toString());
        assertTrue(server.get("rpc_requests").isNull(), server.toString());
        assertEquals("142561280", server.get("rss_max_bytes").asText(), server.toString());
        String text = ReportWriter.JSON.writeValueAsString(server);
        assertFalse(text.contains("NaN") || text.contains("E8"), text);
    }

    @Test
    void severalServersAreSummedWithARowEachAndARowHasNoServersOfItsOwn() {
        ServerSummary a = new ServerSummary("http://a/metrics", 0.5, 100, 10, 600, 600, Double.NaN);
        ServerSummary b = new ServerSummary("http://b/metrics", Double.NaN, 200, 20, 400, 400, Double.NaN);
        JsonNode server = ReportWriter.JSON.valueToTree(new ServerSummary("http://a/metrics,http://b/metrics", 0.5, 300,
                30, 1000, 1000, Double.NaN, List.of(a, b)));
        assertEquals(1000, server.get("frames_sent").asLong(), server.toString());
        assertEquals(2, server.get("servers").size(), server.toString());
        JsonNode second = server.get("servers").get(1);
        assertEquals("http://b/metrics", second.get("url").asText());
        assertTrue(second.get("cpu_max").isNull(), second.toString());
        assertEquals(400, second.get("frames_sent").asLong(), second.toString());
        assertFalse(second.has("servers"), second.toString());
    }

    @Test
    void intervalsCsvKeepsEachFigureToItsMeaningAndLeavesUnmeasuredCellsEmpty(@TempDir Path dir) throws Exception {
        try (ReportWriter report = new ReportWriter(dir, Map.of("latency_kind", "closed_loop"), 0)) {
            report.interval(new IntervalRow(1.0004567, 10, 100, 99, 0, 1, 0, 99.96, 120, 900, 1500, Double.NaN, Double.NaN),
                    new Interval(0, 1, 0, 1000, 10, io.ricochet.loadgen.stats.RunStats.Counts.ZERO,
                            io.ricochet.loadgen.stats.RunStats.newHistogram(), null, null, null, 0));
        }
        assertTrue(Files.readAllLines(dir.resolve("latency.hlog")).get(0)
                .equals("#Ricochet load generator: closed_loop, in microseconds"), "the unit is in the log's header");
        Map<String, String> row = readCsv(dir.resolve("intervals.csv")).get(0);
        assertEquals(IntervalRow.COLUMNS, List.copyOf(row.keySet()));
        assertEquals("1", row.get("time_s"));
        assertEquals("100", row.get("qps"));
        assertEquals("", row.get("server_cpu"));
        assertEquals("", row.get("server_rss_bytes"));
    }

    /** Two runs' figures mean little side by side without what and where each ran. */
    @Test
    void summaryAndConfigAreStampedWithWhatAndWhereTheRunRan(@TempDir Path dir) throws Exception {
        long start = 1_795_000_000_123L;
        try (ReportWriter report = new ReportWriter(dir, Map.of("latency_kind", "closed_loop", "io", "epoll"), start)) {
            report.summary(Map.of("qps", 1));
        }
        for (String file : List.of("summary.json", "config.json")) {
            JsonNode run = ReportWriter.JSON.readTree(dir.resolve(file).toFile()).get("run");
            assertEquals("2026-11-18T11:06:40.123Z", run.get("started_utc").asText(), file);
            assertEquals("epoll", run.get("io").asText(), file);
            assertEquals(Runtime.version().toString(), run.get("jvm").get("version").asText(), file);
            assertEquals(Runtime.getRuntime().availableProcessors(), run.get("host").get("cores").asInt(), file);
            assertTrue(run.get("host").get("memory_bytes").asLong() > 0, file);
            assertTrue(run.get("kernel").asText().startsWith(System.getProperty("os.name")), file);
            // The build's own stamp: this module is built from git, so neither is unknown.
            assertFalse(run.get("ricochet").get("version").asText().equals("unknown"), run.toString());
            assertTrue(run.get("ricochet").get("commit").asText().matches("[0-9a-f]{7,}"), run.toString());
        }
        assertEquals(1, ReportWriter.JSON.readTree(dir.resolve("summary.json").toFile()).get("qps").asInt());
    }
}
