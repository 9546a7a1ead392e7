package io.ricochet.loadgen.engine;

import java.time.Duration;

/**
 * When a {@link LoadDriver} measures: an uncounted warmup, then {@code duration} (null: until the load has finished
 * its fixed amount of work) in intervals of {@code interval}, then up to {@code drain} for what is still owed.
 */
public record Schedule(Duration warmup, Duration duration, Duration interval, Duration drain) {

    /** A run of a fixed amount of work, measured from its start to its end. */
    public static Schedule untilFinished(Duration interval, Duration drain) {
        return new Schedule(Duration.ZERO, null, interval, drain);
    }
}
