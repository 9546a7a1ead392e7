package io.ricochet.loadgen.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.loadgen.report.ReportWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One page comparing runs from their report directories: latency spectra and QPS over time overlaid, and QPS, p50, p99,
 * max, errors and server CPU side by side, each with its change against the first run.
 */
public final class ComparePage {
    private ComparePage() {
    }

    /**
     * Writes the page to {@code out}, and returns where the runs' setups differ ({@link RunDifferences}), which the page
     * shows too; fails, naming it, on a directory without {@code summary.json}.
     */
    public static List<String> write(List<Path> dirs, Path out) {
        ObjectNode data = ReportWriter.JSON.createObjectNode();
        ArrayNode runs = data.putArray("runs");
        List<String> titles = new ArrayList<>();
        List<JsonNode> summaries = new ArrayList<>();
        for (Path dir : dirs) {
            ObjectNode run = HtmlReport.data(dir);
            // Directories of the same name (report/ under two parents) are told apart by their path as given.
            run.put("title", dir.toString());
            runs.add(run);
            titles.add(dir.toString());
            summaries.add(run.get("summary"));
        }
        List<String> warnings = RunDifferences.of(titles, summaries);
        ArrayNode shown = data.putArray("warnings");
        warnings.forEach(shown::add);
        try {
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(out, HtmlReport.page(data, "compare.js", "Ricochet: " + dirs.size() + " runs compared"),
                    StandardCharsets.UTF_8);
            return warnings;
        } catch (IOException e) {
            throw new UncheckedIOException("compare " + out + ": " + e.getMessage(), e);
        }
    }
}
