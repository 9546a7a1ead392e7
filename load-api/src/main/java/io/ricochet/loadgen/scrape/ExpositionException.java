package io.ricochet.loadgen.scrape;

import java.io.IOException;

/**
 * A metrics exposition that is not Prometheus text (0.0.4) or OpenMetrics 1.0 text, or that exceeds one of
 * {@link ExpositionParser}'s bounds. An {@link IOException}, as a scrape's other failures are: the server's answer was
 * not usable.
 */
public final class ExpositionException extends IOException {
    private final int line;

    ExpositionException(int line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    /** The line, counted from 1, that was refused. */
    public int line() {
        return line;
    }
}
