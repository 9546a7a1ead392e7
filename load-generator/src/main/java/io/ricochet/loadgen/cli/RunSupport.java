package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.SummaryTable;
import io.ricochet.loadgen.report.threshold.LiveThresholds;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.loadgen.report.threshold.Thresholds;
import io.ricochet.loadgen.run.ExitStatus;
import io.ricochet.loadgen.scenario.Scenario;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;

/** How every command ends a run: the output, the thresholds, the exit status. */
final class RunSupport {
    private RunSupport() {
    }

    /**
     * Ends a run: checks its thresholds (with what {@code live} saw during the run), prints its summary (as JSON with
     * the thresholds' outcomes, or as {@code table} followed by a line per threshold and an abort's reason), keeps the
     * outcomes in the report's {@code summary.json}, and returns the exit status: {@code exit}, or
     * {@link Thresholds#BROKEN_EXIT} when a threshold broke.
     */
    static int conclude(Scenario s, LiveThresholds live, Object summary, int exit, Runnable table, PrintWriter out) {
        List<Threshold.Result> results = live.complete(Thresholds.check(s.thresholds(), summary));
        String aborted = live.abortReason();
        if (s.json()) {
            print(Thresholds.withResults(summary, results, aborted), true, out);
        } else {
            table.run();
            results.forEach(r -> out.println(r.line()));
            if (aborted != null) {
                out.println("aborted: " + aborted);
            }
            out.flush();
        }
        if (s.report() != null) {
            Thresholds.annotate(s.report(), results, aborted);
        }
        return Thresholds.broken(results) || aborted != null ? Thresholds.BROKEN_EXIT : exit;
    }

    static void print(Object summary, boolean json, PrintWriter out) {
        if (json) {
            try {
                out.println(ReportWriter.JSON.writeValueAsString(summary));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        } else if (summary instanceof Summary s) {
            SummaryTable.print(s, out);
        }
        out.flush();
    }

    static int exitStatus(Summary s, double maxErrorRate) {
        return ExitStatus.of(s, maxErrorRate);
    }

    static int exitStatus(RpcSummary s, double maxErrorRate) {
        return ExitStatus.of(s, maxErrorRate);
    }
}
