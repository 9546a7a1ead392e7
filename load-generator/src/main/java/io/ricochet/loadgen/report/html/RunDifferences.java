package io.ricochet.loadgen.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Where compared runs were set up differently, in what changes their figures most: Ricochet's version, the JVM, the
 * host's cores. Each difference against the first run (the baseline) is one line, for {@code compare} to print and
 * show; a run with no {@code run} stamp (written before runs were stamped) is said once.
 */
final class RunDifferences {
    private RunDifferences() {
    }

    /** One warning per run and difference, from each run's {@code summary.json} (its {@code run} object). */
    static List<String> of(List<String> titles, List<JsonNode> summaries) {
        List<String> warnings = new ArrayList<>();
        JsonNode base = summaries.get(0).path("run");
        for (int i = 0; i < summaries.size(); i++) {
            JsonNode run = summaries.get(i).path("run");
            if (run.isMissingNode()) {
                warnings.add(titles.get(i) + ": not stamped with what it ran on (a report from before runs were)");
                continue;
            }
            if (i == 0 || base.isMissingNode()) {
                continue;
            }
            differ(warnings, titles, i, "Ricochet", ricochet(base), ricochet(run));
            differ(warnings, titles, i, "JVM", jvm(base), jvm(run));
            differ(warnings, titles, i, "cores", base.path("host").path("cores").asText(),
                    run.path("host").path("cores").asText());
        }
        return warnings;
    }

    private static void differ(List<String> warnings, List<String> titles, int i, String what, String base, String run) {
        if (!base.equals(run)) {
            warnings.add("runs differ in " + what + ": " + titles.get(0) + " " + base + ", " + titles.get(i) + " " + run);
        }
    }

    private static String ricochet(JsonNode run) {
        return run.path("ricochet").path("version").asText() + " (" + run.path("ricochet").path("commit").asText() + ")";
    }

    private static String jvm(JsonNode run) {
        return run.path("jvm").path("vendor").asText() + " " + run.path("jvm").path("version").asText();
    }
}
