package io.ricochet.loadgen.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.loadgen.files.InputFiles;
import io.ricochet.loadgen.report.ReportWriter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The files of a report directory, read with a bound: a killed run's directory is what {@code report DIR} reads, so
 * any file in it may be cut short, huge, or not a file at all.
 */
final class ReportFiles {
    /** The largest file read: {@link ReportWriter#MAX_READ_BYTES}, as for every report file read back. */
    static final int MAX_FILE_BYTES = ReportWriter.MAX_READ_BYTES;

    private ReportFiles() {
    }

    static byte[] bytes(Path file) {
        return InputFiles.read(file, MAX_FILE_BYTES);
    }

    static JsonNode json(Path file) throws IOException {
        return ReportWriter.JSON.readTree(bytes(file));
    }
}
