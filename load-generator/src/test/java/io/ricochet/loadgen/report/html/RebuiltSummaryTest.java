package io.ricochet.loadgen.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.report.IntervalRow;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.stats.RunStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A report directory as a run killed with SIGKILL leaves it: its appended files, the last lines maybe cut short. */
class RebuiltSummaryTest {

    /** Writes {@code rows} intervals of 100 requests (98 ok, 1 bad, 1 error), latencies of 100 µs × the interval. */
    private static void killedRun(Path dir, int rows) {
        ReportWriter report = new ReportWriter(dir, Map.of("command", "echo", "target", "127.0.0.1:7000",
                "latency_kind", "closed_loop"), 1_000);
        for (int i = 0; i < rows; i++) {
            Histogram latency = RunStats.newHistogram();
            latency.recordValueWithCount(100L * (i + 1), 98);
            report.interval(new IntervalRow(0.5 * (i + 1), 4, 100, 98, 1, 1, 2, 200, 100, 100, 100, 0.25 + i * 0.1,
                    Double.NaN), new Interval(i, 0.5 * (i + 1), 1_000 + 500L * i, 1_500 + 500L * i, 4,
                    RunStats.Counts.ZERO, latency, null, null, null, 0));
        }
        // No close, no summary: the process was killed.
    }

    @Test
    void theCountsAreTheIntervalsAndTheLatencyTheLogs(@TempDir Path dir) throws Exception {
        killedRun(dir, 3);
        RebuiltSummary rebuilt = RebuiltSummary.of(dir);
        assertEquals("summary.json missing (run did not finish): rebuilt from 3 intervals and latency.hlog",
                rebuilt.note());
        JsonNode s = rebuilt.json();
        assertEquals("echo", s.get("command").asText());
        assertEquals("127.0.0.1:7000", s.get("target").asText());
        assertEquals(300, s.get("requests").asLong());
        assertEquals(294, s.get("ok").asLong());
        assertEquals(3, s.get("bad").asLong());
        assertEquals(3, s.get("errors").asLong());
        assertEquals(6, s.get("unexpected").asLong());
        assertEquals(1.5, s.get("duration_s").asDouble());
        assertEquals(200.0, s.get("qps").asDouble());
        assertEquals(294, s.get("latency_us").get("count").asLong());
        assertEquals(300, s.get("latency_us").get("max").asLong(), 1);
        assertEquals("closed_loop", s.get("latency_kind").asText());
        assertEquals(0.45, s.get("server").get("cpu_max").asDouble(), 1e-9);
        assertTrue(s.get("server").get("rss_max_bytes").isNull(), s.toString());
        assertEquals(rebuilt.note(), s.get("reconstructed").asText());
        assertFalse(s.has("first_error"), "what only the run's end knows is not made up");
    }

    @Test
    void aLastLineTheKillCutShortIsLeftOut(@TempDir Path dir) throws Exception {
        killedRun(dir, 2);
        Files.writeString(dir.resolve("intervals.csv"), "1.5,4,10", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("latency.hlog"), "1.000,0.500,0.100,HISTFAAAA", StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        RebuiltSummary rebuilt = RebuiltSummary.of(dir);
        assertEquals("summary.json missing (run did not finish): rebuilt from 2 intervals and latency.hlog; its last "
                + "row, cut short, left out", rebuilt.note());
        assertEquals(200, rebuilt.json().get("requests").asLong());
        assertEquals(196, rebuilt.json().get("latency_us").get("count").asLong());
        assertTrue(Files.readString(HtmlReport.write(dir, rebuilt.json())).contains("rebuilt from 2 intervals"));
    }

    @Test
    void aDirectoryWithNothingToRebuildFromIsRefusedByName(@TempDir Path dir) throws Exception {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> RebuiltSummary.of(dir));
        assertEquals("report directory " + dir + ": no summary.json, nor intervals.csv to rebuild one from",
                none.getMessage());
        killedRun(dir, 0);
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> RebuiltSummary.of(dir));
        assertTrue(empty.getMessage().contains("nor a whole interval in intervals.csv"), empty.getMessage());
    }
}
