package io.ricochet.loadgen.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.ricochet.loadgen.report.ReportWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code report.html}: one self-contained page (uPlot inlined, no network) drawn from a report directory's own files, so
 * it can be rebuilt from them at any time. What it shows follows from what the directory holds: intervals over time
 * ({@code intervals.csv}), latency over time and as spectra (the {@code .hlog} logs), the steps of a sweep or a ramp and
 * the clients of an RPC run ({@code summary.json}), the workers of a distributed run ({@code workers.csv}), and the
 * configuration.
 */
public final class HtmlReport {
    public static final String FILE = "report.html";
    /** uPlot as the webjar pinned in the parent POM ({@code uplot.version}) lays it out. */
    static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    private static final String PAGES = "io/ricochet/loadgen/report/html/";

    private HtmlReport() {
    }

    /** Writes {@code dir/report.html} and returns its path; fails when the directory has no {@code summary.json}. */
    public static Path write(Path dir) {
        return write(dir, readSummary(dir));
    }

    /**
     * Writes {@code dir/report.html} with {@code summary} for the run's (a {@link RebuiltSummary}'s when the run wrote
     * none), and the directory's other files; returns its path.
     */
    public static Path write(Path dir, JsonNode summary) {
        Path out = dir.resolve(FILE);
        try {
            Files.writeString(out, page(data(dir, summary), "report.js", "Ricochet report: " + title(dir)),
                    StandardCharsets.UTF_8);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    /** What a page shows of the run in {@code dir}, read from its files; fails when it has no {@code summary.json}. */
    static ObjectNode data(Path dir) {
        return data(dir, readSummary(dir));
    }

    private static JsonNode readSummary(Path dir) {
        Path summary = dir.resolve("summary.json");
        if (!Files.isRegularFile(summary)) {
            throw new IllegalArgumentException("report directory " + dir + ": no summary.json");
        }
        try {
            return ReportWriter.JSON.readTree(summary.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    private static ObjectNode data(Path dir, JsonNode summary) {
        try {
            ObjectNode data = ReportWriter.JSON.createObjectNode();
            data.put("title", title(dir));
            data.set("summary", summary);
            Path config = dir.resolve("config.json");
            data.set("config", Files.isRegularFile(config) ? ReportWriter.JSON.readTree(config.toFile())
                    : ReportWriter.JSON.createObjectNode());
            Path intervals = dir.resolve("intervals.csv");
            if (Files.isRegularFile(intervals)) {
                data.set("intervals", columns(intervals));
            }
            Path workers = dir.resolve("workers.csv");
            if (Files.isRegularFile(workers)) {
                data.set("workers", rows(workers));
            }
            ObjectNode logs = data.putObject("latency");
            for (String log : new String[] {"latency", "service", "connect", "handshake"}) {
                Path hlog = dir.resolve(log + ".hlog");
                if (Files.isRegularFile(hlog)) {
                    logs.set(log, LatencyLog.read(hlog));
                }
            }
            return data;
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String title(Path dir) {
        Path name = dir.toAbsolutePath().normalize().getFileName();
        return name == null ? dir.toString() : name.toString();
    }

    /**
     * A page: the shared template with uPlot, the shared helpers (layout, charts, shard plan), {@code script} (the
     * page's own) and the data inlined.
     */
    static String page(JsonNode data, String script, String title) throws IOException {
        // "</" would end the script element the data sits in.
        String json = ReportWriter.JSON.writeValueAsString(data).replace("</", "<\\/");
        return resource(PAGES + "page.html")
                .replace("/*TITLE*/", title.replace("&", "&amp;").replace("<", "&lt;"))
                .replace("/*UPLOT_CSS*/", resource(UPLOT + "uPlot.min.css"))
                .replace("/*UPLOT_JS*/", resource(UPLOT + "uPlot.iife.min.js"))
                .replace("/*CHARTS_JS*/", resource(PAGES + "layout.js") + resource(PAGES + "charts.js")
                        + resource(PAGES + "shards.js"))
                .replace("/*PAGE_JS*/", resource(PAGES + script))
                .replace("/*DATA*/", json);
    }

    /** A CSV file as one array per column. */
    private static ObjectNode columns(Path csv) throws IOException {
        ObjectNode columns = ReportWriter.JSON.createObjectNode();
        for (JsonNode row : rows(csv)) {
            row.fields().forEachRemaining(cell -> {
                ArrayNode column = columns.has(cell.getKey()) ? (ArrayNode) columns.get(cell.getKey())
                        : columns.putArray(cell.getKey());
                column.add(cell.getValue());
            });
        }
        return columns;
    }

    /** A CSV file with a header as one object per row: numbers where the cell is one, null where it is empty. */
    private static ArrayNode rows(Path csv) throws IOException {
        ArrayNode rows = ReportWriter.JSON.createArrayNode();
        CsvSchema schema = CsvSchema.emptySchema().withHeader();
        WholeLines lines = WholeLines.of(csv);
        if (lines.isEmpty()) {
            return rows;
        }
        // A row a kill cut short is left out.
        try (MappingIterator<Map<String, String>> it = new CsvMapper().readerForMapOf(String.class).with(schema)
                .readValues(lines.stream())) {
            while (it.hasNext()) {
                ObjectNode row = rows.addObject();
                for (Map.Entry<String, String> cell : it.next().entrySet()) {
                    String v = cell.getValue();
                    if (v == null || v.isEmpty()) {
                        row.putNull(cell.getKey());
                    } else {
                        try {
                            row.put(cell.getKey(), Double.parseDouble(v));
                        } catch (NumberFormatException e) {
                            row.put(cell.getKey(), v);
                        }
                    }
                }
            }
        }
        return rows;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
