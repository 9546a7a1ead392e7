package io.ricochet.loadgen.report;

/**
 * One step of a sweep or a ramp: what was asked, what was measured, and whether it passed. {@code kind} says what the
 * step varied: {@code size} or {@code count} in a sweep, {@code rate} in a ramp.
 */
public record StepRow(int step, String kind, int size, long requests, double targetRate, long ok, long bad, long errors,
        double durationS, double qps, double mbPerS, long p50Us, long p99Us, long maxUs, boolean passed) {

    public static StepRow of(int step, String kind, int size, double targetRate, Summary s, boolean passed) {
        return new StepRow(step, kind, size, s.requests(), targetRate, s.ok(), s.bad(), s.errors(), s.durationS(), s.qps(),
                Math.round(s.throughputBytesPerS() / 1e6 * 1000) / 1000.0, s.latencyUs().p50(), s.latencyUs().p99(),
                s.latencyUs().max(), passed);
    }
}
