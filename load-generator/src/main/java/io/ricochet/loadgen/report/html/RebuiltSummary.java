package io.ricochet.loadgen.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.stats.RunStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * The summary of a run that never wrote its {@code summary.json} (killed with SIGKILL, its machine lost), rebuilt from
 * what the run appended as it went: the counts of {@code intervals.csv}, the latency of {@code latency.hlog} (and of
 * the other {@code .hlog} logs there are), and {@code config.json}'s command and target. A line the kill cut short,
 * at the end of a file, is left out. What only a run's end knows ({@code first_error}, {@code first_bad}, {@code late},
 * connect failures, the server's counters) is not in it. Its {@code reconstructed} field says so, with {@link #note}.
 *
 * @param json the summary as {@code summary.json} would hold it (the fields it can know), with {@code reconstructed}
 * @param note {@code summary.json missing (run did not finish): rebuilt from 12 intervals and latency.hlog}
 */
public record RebuiltSummary(ObjectNode json, String note) {
    /** The columns a row must have to be counted. */
    private static final String[] COUNTS = {"requests", "ok", "bad", "errors"};

    /**
     * Rebuilds the summary of the run in {@code dir}; fails with {@link IllegalArgumentException} when it has no
     * {@code intervals.csv}, or not one whole interval in it.
     */
    public static RebuiltSummary of(Path dir) {
        Path csv = dir.resolve("intervals.csv");
        if (!Files.isRegularFile(csv)) {
            throw new IllegalArgumentException("report directory " + dir
                    + ": no summary.json, nor intervals.csv to rebuild one from");
        }
        try {
            ObjectNode summary = ReportWriter.JSON.createObjectNode();
            JsonNode config = readConfig(dir);
            for (String field : new String[] {"command", "target", "transport", "io", "connections"}) {
                if (config.hasNonNull(field)) {
                    summary.set(field, config.get(field));
                }
            }
            WholeLines rows = WholeLines.of(csv);
            Totals totals = rows.isEmpty() ? new Totals() : totals(dir, rows);
            if (totals.intervals == 0) {
                throw new IllegalArgumentException("report directory " + dir + ": no summary.json, nor a whole "
                        + "interval in intervals.csv to rebuild one from (the run ended before its first)");
            }
            summary.put("requests", totals.requests);
            summary.put("ok", totals.ok);
            summary.put("bad", totals.bad);
            summary.put("errors", totals.errors);
            summary.put("unexpected", totals.unexpected);
            summary.put("duration_s", totals.seconds);
            summary.put("qps", totals.seconds > 0 ? Math.round(totals.requests / totals.seconds * 1000) / 1000.0 : 0);
            StringBuilder from = new StringBuilder().append(totals.intervals)
                    .append(totals.intervals == 1 ? " interval" : " intervals");
            LatencySummary latency = latency(dir.resolve("latency.hlog"));
            if (latency != null) {
                summary.set("latency_us", ReportWriter.JSON.valueToTree(latency));
                from.append(" and latency.hlog");
            } else {
                from.append(" (no latency.hlog)");
            }
            if (config.hasNonNull("latency_kind")) {
                summary.set("latency_kind", config.get("latency_kind"));
            }
            putLatency(summary, "service_latency_us", dir.resolve("service.hlog"));
            putLatency(summary, "connect_time_us", dir.resolve("connect.hlog"));
            putLatency(summary, "handshake_time_us", dir.resolve("handshake.hlog"));
            if (totals.cpuMax >= 0 || totals.rssMax >= 0) {
                ObjectNode server = summary.putObject("server");
                server.put("cpu_max", totals.cpuMax >= 0 ? totals.cpuMax : null);
                server.put("rss_max_bytes", totals.rssMax >= 0 ? totals.rssMax : null);
            }
            if (rows.cut()) {
                from.append("; its last row, cut short, left out");
            }
            String note = "summary.json missing (run did not finish): rebuilt from " + from;
            summary.put("reconstructed", note);
            return new RebuiltSummary(summary, note);
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    private static JsonNode readConfig(Path dir) throws IOException {
        Path config = dir.resolve("config.json");
        return Files.isRegularFile(config) ? ReportFiles.json(config)
                : ReportWriter.JSON.createObjectNode();
    }

    /** The sums of the intervals' counts, their last elapsed time, and the server's peaks (-1: never measured). */
    private static final class Totals {
        long intervals;
        long requests;
        long ok;
        long bad;
        long errors;
        long unexpected;
        double seconds;
        double cpuMax = -1;
        double rssMax = -1;
    }

    /** Fails with {@link IllegalArgumentException} naming a row without one of the counts. */
    private static Totals totals(Path dir, WholeLines csv) throws IOException {
        Totals t = new Totals();
        CsvSchema schema = CsvSchema.emptySchema().withHeader();
        try (MappingIterator<Map<String, String>> it = new CsvMapper().readerForMapOf(String.class).with(schema)
                .readValues(csv.stream())) {
            while (it.hasNext()) {
                Map<String, String> row = it.next();
                for (String column : COUNTS) {
                    if (number(row, column) < 0) {
                        throw new IllegalArgumentException("report directory " + dir + ": intervals.csv row "
                                + (t.intervals + 1) + " has no " + column + " (expected: a number)");
                    }
                }
                t.intervals++;
                t.requests += (long) number(row, "requests");
                t.ok += (long) number(row, "ok");
                t.bad += (long) number(row, "bad");
                t.errors += (long) number(row, "errors");
                // Absent from the intervals of runs made before it was counted.
                t.unexpected += (long) Math.max(0, number(row, "unexpected"));
                t.seconds = Math.max(t.seconds, Math.max(0, number(row, "time_s")));
                t.cpuMax = Math.max(t.cpuMax, number(row, "server_cpu"));
                t.rssMax = Math.max(t.rssMax, number(row, "server_rss_bytes"));
            }
        }
        return t;
    }

    /** The cell as a number, or -1 when the row has none there (an empty cell is a figure not measured). */
    private static double number(Map<String, String> row, String column) {
        String cell = row.get(column);
        if (cell == null || cell.isEmpty()) {
            return -1;
        }
        try {
            return Double.parseDouble(cell);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void putLatency(ObjectNode summary, String field, Path hlog) throws IOException {
        LatencySummary latency = latency(hlog);
        if (latency != null) {
            summary.set(field, ReportWriter.JSON.valueToTree(latency));
        }
    }

    /** The whole intervals of {@code hlog} added up, or null without the file. */
    private static LatencySummary latency(Path hlog) throws IOException {
        if (!Files.isRegularFile(hlog)) {
            return null;
        }
        Histogram total = RunStats.newHistogram();
        try (HistogramLogReader reader = new HistogramLogReader(WholeLines.of(hlog).stream())) {
            EncodableHistogram next;
            while ((next = reader.nextIntervalHistogram()) != null) {
                if (next instanceof Histogram h) {
                    total.add(h);
                }
            }
        }
        return LatencySummary.of(total);
    }
}
