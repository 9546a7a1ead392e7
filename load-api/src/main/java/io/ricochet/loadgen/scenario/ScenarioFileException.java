package io.ricochet.loadgen.scenario;

import com.fasterxml.jackson.core.JsonLocation;

/**
 * A scenario file that cannot be run, in one line naming the file, the line and column, and the key:
 * {@code scenario.yaml:7:3: connections: 0 (expected: > 0)}.
 *
 * <pre>{@code
 * try {
 *     Scenario s = ScenarioFiles.read(Path.of("scenario.yaml"), null);
 * } catch (ScenarioFileException e) {
 *     System.err.println(e.getMessage());      // scenario.yaml:4:1: conections: unknown key (did you mean connections?)
 * }
 * }</pre>
 */
public final class ScenarioFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final int column;
    private final String key;

    /** {@code key}'s {@code problem} ({@code key: problem}), or the file's when {@code key} is empty. */
    ScenarioFileException(String file, JsonLocation at, String key, String problem) {
        this(file, at, key, problem, true);
    }

    /** {@code message} as it is, about {@code key}: it names every key it is about itself. */
    ScenarioFileException(String file, JsonLocation at, String key, String message, boolean prefixKey) {
        super(file + (at == null || at.getLineNr() < 1 ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr()) + ": "
                + (key.isEmpty() || !prefixKey ? "" : key + ": ") + message);
        this.file = file;
        this.line = at == null ? -1 : at.getLineNr();
        this.column = at == null ? -1 : at.getColumnNr();
        this.key = key;
    }

    /** The file, as it was named. */
    public String file() {
        return file;
    }

    /** The line of the key (from 1), or -1 when the problem is not at one key. */
    public int line() {
        return line;
    }

    /** Its column (from 1), or -1. */
    public int column() {
        return column;
    }

    /** The key, dotted ({@code tls.ca}); empty for the file as a whole. */
    public String key() {
        return key;
    }
}
