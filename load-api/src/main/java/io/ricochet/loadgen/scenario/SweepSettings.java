package io.ricochet.loadgen.scenario;

/**
 * What {@code sweep} sweeps ({@code sweep:} in a scenario file): body sizes from 128 B to {@code maxSize}, and with
 * {@code counts} a count sweep at {@code countSize}.
 *
 * <pre>{@code
 * SweepSettings counts = new SweepSettings(1_000, 16 << 20, SizeRange.parseCounts("1k..10k"), 1024, false);
 * }</pre>
 *
 * @param requestsPerStep requests of each size step
 * @param maxSize         the largest body of the size sweep
 * @param counts          the count sweep, MIN..MAX in steps of MIN, or null for none
 * @param countSize       the body of the count sweep
 * @param sizes           whether to run the size sweep
 */
public record SweepSettings(long requestsPerStep, int maxSize, SizeRange counts, int countSize, boolean sizes) {
    /** The command line's defaults. */
    public static final SweepSettings DEFAULTS = new SweepSettings(1_000, 16 << 20, null, 1024, true);
}
