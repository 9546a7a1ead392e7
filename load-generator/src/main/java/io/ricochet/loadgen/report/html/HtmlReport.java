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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    private static final Pattern PLACEHOLDER = Pattern.compile("/\\*([A-Z_]+)\\*/");

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
            return ReportFiles.json(summary);
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
            data.set("config", Files.isRegularFile(config) ? ReportFiles.json(config)
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
     * page's own) and the data inlined. The placeholders are filled in one pass, so no filled text (a title, a reply)
     * is read as a placeholder.
     */
    static String page(JsonNode data, String script, String title) throws IOException {
        Map<String, String> fills = Map.of(
                "TITLE", escapeText(title),
                "UPLOT_CSS", resource(UPLOT + "uPlot.min.css"),
                "UPLOT_JS", resource(UPLOT + "uPlot.iife.min.js"),
                "CHARTS_JS", resource(PAGES + "layout.js") + resource(PAGES + "charts.js") + resource(PAGES + "shards.js"),
                "PAGE_JS", resource(PAGES + script),
                "DATA", scriptSafeJson(data));
        Matcher placeholder = PLACEHOLDER.matcher(resource(PAGES + "page.html"));
        StringBuilder page = new StringBuilder();
        while (placeholder.find()) {
            String fill = fills.get(placeholder.group(1));
            placeholder.appendReplacement(page, Matcher.quoteReplacement(fill == null ? placeholder.group() : fill));
        }
        return placeholder.appendTail(page).toString();
    }

    /**
     * {@code data} as JSON that no content can break out of or into: every {@code <}, {@code >} and {@code &} as a
     * JSON escape, so no string ends the script element ({@code </script}), opens a comment or another script inside
     * it ({@code <!--}, {@code <script}: the HTML parser's double-escaped state); U+2028 and U+2029 too, which end a
     * line in older JavaScript. {@code JSON.parse} reads them back as the same characters.
     */
    static String scriptSafeJson(JsonNode data) throws IOException {
        String json = ReportWriter.JSON.writeValueAsString(data);
        StringBuilder safe = new StringBuilder(json.length() + 64);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<', '>', '&', '\u2028', '\u2029' -> safe.append(String.format("\\u%04x", (int) c));
                default -> safe.append(c);
            }
        }
        return safe.toString();
    }

    /** Text for an element's content or a quoted attribute. */
    private static String escapeText(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
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
