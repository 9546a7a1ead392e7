package io.ricochet.loadgen.report.html;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A report file's whole lines: a run appends its files line by line, so what follows the last newline is a line a
 * kill cut short, and is left out.
 *
 * @param text the file up to and with its last newline
 * @param cut  whether a line cut short was left out
 */
record WholeLines(byte[] text, boolean cut) {
    /** {@code file}'s whole lines; an {@link io.ricochet.loadgen.files.InputFileException} naming it if it is refused. */
    static WholeLines of(Path file) {
        byte[] bytes = ReportFiles.bytes(file);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        return new WholeLines(end == bytes.length ? bytes : Arrays.copyOf(bytes, end), end != bytes.length);
    }

    InputStream stream() {
        return new ByteArrayInputStream(text);
    }

    boolean isEmpty() {
        return text.length == 0;
    }
}
