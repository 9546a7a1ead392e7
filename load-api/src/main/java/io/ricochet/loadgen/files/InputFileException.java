package io.ricochet.loadgen.files;

import java.nio.file.Path;

/**
 * A file that {@link InputFiles} refused: its message is one line, {@code FILE: REASON}, and {@link #reason()} the part
 * after the name, for a caller that names the file in its own way (a scenario file's {@code FILE:LINE:COLUMN}).
 */
public final class InputFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String reason;

    InputFileException(Path file, String reason, Throwable cause) {
        super(file + ": " + reason, cause);
        this.file = file;
        this.reason = reason;
    }

    /** The file refused. */
    public Path file() {
        return file;
    }

    /** Why, without the file's name: {@code over 1,024 bytes (expected: at most 1,024)}. */
    public String reason() {
        return reason;
    }
}
