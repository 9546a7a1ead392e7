package io.ricochet.loadgen.report.threshold;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.loadgen.report.ReportWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A run's thresholds checked against its summary: a broken one makes the run exit {@link #BROKEN_EXIT}, as in k6.
 *
 * <pre>{@code
 * List<Threshold.Result> results = Thresholds.check(List.of(Threshold.parse("p99<5ms")), summary);
 * if (Thresholds.broken(results)) {
 *     System.exit(Thresholds.BROKEN_EXIT);
 * }
 * }</pre>
 */
public final class Thresholds {
    public static final int BROKEN_EXIT = 99;

    private Thresholds() {
    }

    /** Each threshold's outcome on {@code summary} (any command's summary record). */
    public static List<Threshold.Result> check(List<Threshold> thresholds, Object summary) {
        JsonNode json = ReportWriter.tree(summary);
        return thresholds.stream().map(t -> t.check(json)).toList();
    }

    public static boolean broken(List<Threshold.Result> results) {
        return results.stream().anyMatch(r -> !r.passed());
    }

    /**
     * {@code summary} as JSON with the outcomes under {@code thresholds}, when there are any, and why a threshold
     * aborted the run under {@code aborted}, when one did.
     */
    public static JsonNode withResults(Object summary, List<Threshold.Result> results, String aborted) {
        ObjectNode json = ReportWriter.tree(summary);
        add(json, results, aborted);
        return json;
    }

    private static void add(ObjectNode summary, List<Threshold.Result> results, String aborted) {
        if (!results.isEmpty()) {
            summary.set("thresholds", ReportWriter.JSON.valueToTree(results));
        }
        if (aborted != null) {
            summary.put("aborted", aborted);
        }
    }

    /** Adds the outcomes, and an abort's reason, to {@code dir/summary.json}, so the report keeps which broke when. */
    public static void annotate(Path dir, List<Threshold.Result> results, String aborted) {
        Path file = dir.resolve("summary.json");
        if ((results.isEmpty() && aborted == null) || !Files.isRegularFile(file)) {
            return;
        }
        try {
            JsonNode summary = ReportWriter.JSON.readTree(file.toFile());
            if (summary instanceof ObjectNode object) {
                add(object, results, aborted);
                ReportWriter.JSON.writeValue(file.toFile(), object);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("report " + dir + ": " + e.getMessage(), e);
        }
    }
}
