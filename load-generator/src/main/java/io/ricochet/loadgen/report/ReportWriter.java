package io.ricochet.loadgen.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The files of {@code --report DIR}: {@code summary.json}, {@code intervals.csv}, {@code latency.hlog}
 * (HdrHistogram's interval log, readable by its HistogramLogProcessor) and {@code config.json}.
 * Rows and histograms are appended as the run goes, so an interrupted run keeps what it measured.
 */
public final class ReportWriter implements AutoCloseable {
    public static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private final PrintStream csv;
    private final PrintStream hlogStream;
    private final HistogramLogWriter hlog;

    public ReportWriter(Path dir, Map<String, Object> config, long startMillis) {
        try {
            this.dir = Files.createDirectories(dir);
            JSON.writeValue(dir.resolve("config.json").toFile(), config);
            this.csv = new PrintStream(Files.newOutputStream(dir.resolve("intervals.csv")), true, StandardCharsets.UTF_8);
            csv.println(IntervalRow.CSV_HEADER);
            this.hlogStream = new PrintStream(Files.newOutputStream(dir.resolve("latency.hlog")), true,
                    StandardCharsets.UTF_8);
            this.hlog = new HistogramLogWriter(hlogStream);
            hlog.outputComment("Ricochet load generator: latency in microseconds, " + config.get("latency_kind"));
            hlog.outputLogFormatVersion();
            hlog.outputStartTime(startMillis);
            hlog.setBaseTime(startMillis);
            hlog.outputLegend();
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    public void interval(IntervalRow row, Histogram histogram) {
        csv.println(row.csv());
        hlog.outputIntervalHistogram(histogram);
    }

    /** Writes {@code summary.json}: a {@link Summary}, {@link RpcSummary} or another command's summary record. */
    public void summary(Object summary) {
        try {
            JSON.writeValue(dir.resolve("summary.json").toFile(), summary);
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Writes one more CSV file of the report, e.g. {@code clients.csv}. */
    public void csv(String file, String header, java.util.List<String> rows) {
        try {
            java.util.List<String> lines = new java.util.ArrayList<>();
            lines.add(header);
            lines.addAll(rows);
            Files.write(dir.resolve(file), lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        csv.close();
        hlogStream.close();
    }
}
