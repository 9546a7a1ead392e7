package io.ricochet.loadgen.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.files.InputFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The files of {@code --report DIR}: {@code summary.json}, {@code intervals.csv}, {@code latency.hlog}
 * (HdrHistogram's interval log of the reported latency, readable by its HistogramLogProcessor) and {@code config.json},
 * the last two stamped with what and where the run ran ({@link RunMetadata});
 * beside them, logs of the same kind for what a run also times: {@code service.hlog} (open loop: from the actual send),
 * {@code connect.hlog} and {@code handshake.hlog} (over TLS or Noise), one entry per interval. Rows and histograms are
 * appended as the run goes, so an interrupted run keeps what it measured.
 */
public final class ReportWriter implements AutoCloseable {
    public static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new FiguresModule());
    /** The report's CSV files: a record's properties under the same snake_case names, quoted where a cell needs it. */
    static final CsvMapper CSV = (CsvMapper) new CsvMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .registerModule(new FiguresModule());

    private final Path dir;
    private final SequenceWriter intervals;
    private final long startMillis;
    private final String latencyKind;
    /** What and where this run ran: in config.json, and in summary.json. */
    private final RunMetadata run;
    private final Map<String, HistogramLog> logs = new LinkedHashMap<>();

    public ReportWriter(Path dir, Map<String, Object> config, long startMillis) {
        try {
            this.dir = Files.createDirectories(dir);
            this.run = RunMetadata.current(startMillis, config.get("io") == null ? null : config.get("io").toString());
            Map<String, Object> stamped = new LinkedHashMap<>(config);
            stamped.put("run", run);
            JSON.writeValue(dir.resolve("config.json").toFile(), stamped);
            this.intervals = csvWriter(IntervalRow.COLUMNS).writeValues(dir.resolve("intervals.csv").toFile());
            this.startMillis = startMillis;
            this.latencyKind = String.valueOf(config.get("latency_kind"));
            log("latency", latencyKind);
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    /** One interval: its row, and each histogram the run keeps in its log, so every log has one entry per interval. */
    public void interval(IntervalRow row, Interval interval) {
        try {
            // Flushed row by row, so an interrupted run keeps what it measured.
            intervals.write(row).flush();
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
        log("latency", latencyKind).write(interval.latency(), interval);
        append("service", "service time, from the actual send", interval.service(), interval);
        append("connect", "connect time", interval.connect(), interval);
        append("handshake", "TLS or Noise handshake time", interval.handshake(), interval);
    }

    private void append(String name, String what, Histogram histogram, Interval interval) {
        if (histogram != null) {
            log(name, what).write(histogram, interval);
        }
    }

    private HistogramLog log(String name, String what) {
        return logs.computeIfAbsent(name, n -> new HistogramLog(dir.resolve(n + ".hlog"), what, startMillis));
    }

    /** One {@code .hlog} file: HdrHistogram's interval log, in microseconds. */
    private static final class HistogramLog {
        private final PrintStream stream;
        private final HistogramLogWriter writer;

        HistogramLog(Path file, String what, long startMillis) {
            try {
                stream = new PrintStream(Files.newOutputStream(file), true, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("report " + file + ": " + e.getMessage(), e);
            }
            writer = new HistogramLogWriter(stream);
            writer.outputComment("Ricochet load generator: " + what + ", in microseconds");
            writer.outputLogFormatVersion();
            writer.outputStartTime(startMillis);
            writer.setBaseTime(startMillis);
            writer.outputLegend();
        }

        void write(Histogram histogram, Interval interval) {
            histogram.setStartTimeStamp(interval.startMillis());
            histogram.setEndTimeStamp(interval.endMillis());
            writer.outputIntervalHistogram(histogram);
        }
    }

    /**
     * Writes {@code summary.json}: a {@link Summary}, {@link RpcSummary} or another command's summary record, with the
     * run's {@link RunMetadata} as {@code run}.
     */
    public void summary(Object summary) {
        writeSummary(dir, summary, run);
    }

    /** As {@link #summary(Object)}, for a controller's run: {@code run} names each worker's host too. */
    public void summary(Object summary, List<RunMetadata.Worker> workers) {
        writeSummary(dir, summary, run.withWorkers(workers));
    }

    /**
     * Writes {@code summary.json} of a command that runs several loads (ramp, sweep, a UDP rate search) into
     * {@code dir}, stamped with {@code run} as {@link #summary} stamps one run's.
     */
    public static void writeSummary(Path dir, Object summary, RunMetadata run) {
        try {
            Files.createDirectories(dir);
            ObjectNode stamped = tree(summary);
            stamped.set("run", JSON.valueToTree(run));
            JSON.writeValue(dir.resolve("summary.json").toFile(), stamped);
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The version of the summaries' one shape, {@code schema_version} in each: {@code summary.schema.json}, beside this
     * class, is its JSON Schema. Raised when a key changes meaning or goes.
     */
    public static final int SCHEMA_VERSION = 1;

    /**
     * Any command's summary record as the JSON it prints and writes: {@code schema_version} first, then the record's
     * properties. A controller's {@link DistributedSummary} is the merged run's keys, as one process's, with the
     * controller's own beside them ({@code workers}, one row each, {@code executor}, {@code problems}, ...), and its
     * 0.x aliases {@code merged} and {@code worker_rows}.
     *
     * <pre>{@code
     * String json = ReportWriter.JSON.writeValueAsString(ReportWriter.tree(summary));
     * }</pre>
     */
    public static ObjectNode tree(Object summary) {
        ObjectNode json = JSON.createObjectNode().put("schema_version", SCHEMA_VERSION);
        if (summary instanceof DistributedSummary run) {
            JsonNode merged = JSON.valueToTree(run.merged());
            json.setAll((ObjectNode) merged);
            JsonNode rows = JSON.valueToTree(run.workerRows());
            json.set("workers", rows);
            json.put("executor", run.executor());
            json.set("problems", JSON.valueToTree(run.problems()));
            json.put("refused_inputs", run.refusedInputs());
            json.put("workers_lost", run.workersLost());
            json.put("on_worker_loss", run.onWorkerLoss());
            if (run.aborted() != null) {
                json.put("aborted", run.aborted());
            }
            json.set("merged", merged.deepCopy());
            json.set("worker_rows", rows.deepCopy());
            return json;
        }
        json.setAll((ObjectNode) JSON.valueToTree(summary));
        return json;
    }

    /**
     * The largest report file read back: 256 MiB, over a day of one-second intervals in any of a run's files. A larger
     * one is refused by name ({@link io.ricochet.loadgen.files.InputFileException}), not read into memory.
     */
    public static final int MAX_READ_BYTES = 256 << 20;

    /**
     * The {@code summary.json} a run wrote into report directory {@code dir}, read with {@link #MAX_READ_BYTES} as its
     * bound: a killed run's directory may hold anything under that name. An
     * {@link io.ricochet.loadgen.files.InputFileException} names a file that is missing, not a file or too large.
     */
    public static JsonNode readSummary(Path dir) throws IOException {
        return JSON.readTree(InputFiles.read(dir.resolve("summary.json"), MAX_READ_BYTES));
    }

    /** Writes one more CSV file of the report, e.g. {@code clients.csv}: a header of {@code columns}, a row per record. */
    public void csv(String file, List<String> columns, List<?> rows) {
        try {
            try (SequenceWriter writer = csvWriter(columns).writeValues(dir.resolve(file).toFile())) {
                writer.writeAll(rows);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }

    private static ObjectWriter csvWriter(List<String> columns) {
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
        columns.forEach(schema::addColumn);
        return CSV.writer(schema.build());
    }

    @Override
    public void close() {
        try {
            intervals.close();
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
        logs.values().forEach(log -> log.stream.close());
    }
}
