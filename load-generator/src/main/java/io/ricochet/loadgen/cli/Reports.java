package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.report.html.HtmlReport;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Drawing a run's {@code report.html} once its files are written. */
final class Reports {
    private Reports() {
    }

    /**
     * Writes {@code dir/report.html} and says where, when {@code dir} holds a run's summary; a failure is one line on
     * {@code err} and leaves the run's own files and exit status as they are.
     */
    static void writeHtml(Path dir, PrintWriter err) {
        if (dir == null || !Files.isRegularFile(dir.resolve("summary.json"))) {
            return;
        }
        try {
            err.println("report: " + HtmlReport.write(dir).toAbsolutePath());
        } catch (UncheckedIOException | IllegalArgumentException e) {
            err.println("report.html not written: " + e.getMessage());
        }
        err.flush();
    }
}
