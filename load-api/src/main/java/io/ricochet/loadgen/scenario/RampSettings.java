package io.ricochet.loadgen.scenario;

import java.time.Duration;

/**
 * How {@code ramp} searches for the latency knee ({@code ramp:} in a scenario file): rates from {@code startRate},
 * multiplied by {@code factor} while each step meets the SLO, up to {@code maxRate}, then {@code refine} bisections.
 *
 * <pre>{@code
 * RampSettings ramp = new RampSettings(Duration.ofMillis(5), 1_000, 2, 1_000_000, 3, Duration.ofSeconds(2));
 * }</pre>
 *
 * @param slo        the highest acceptable corrected p99
 * @param startRate  the first rate, requests/s
 * @param factor     the rate multiplier while no step failed
 * @param maxRate    where raising stops
 * @param refine     bisection steps between the last good and first bad rate
 * @param warmupStep an uncounted first run at the start rate (zero: none)
 */
public record RampSettings(Duration slo, double startRate, double factor, double maxRate, int refine,
        Duration warmupStep) {
    /** The command line's defaults. */
    public static final RampSettings DEFAULTS = new RampSettings(Duration.ofMillis(10), 1_000, 2, 10_000_000, 3,
            Duration.ofSeconds(2));
}
