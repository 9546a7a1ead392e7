package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.stats.RunStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** Latency of each named step of a workload's exchanges (register's four), recorded from any event loop. */
public final class StepTimes {
    private final List<String> names;
    private final Recorder[] recorders;

    StepTimes(List<String> names) {
        this.names = List.copyOf(names);
        this.recorders = new Recorder[names.size()];
        for (int i = 0; i < recorders.length; i++) {
            recorders[i] = new Recorder(RunStats.LOWEST_US, RunStats.HIGHEST_US, RunStats.DIGITS);
        }
    }

    /** Records step {@code step} (its index in the names) as having taken {@code nanos}. */
    public void record(int step, long nanos) {
        recorders[step].recordValue(Math.max(RunStats.LOWEST_US, Math.min(RunStats.HIGHEST_US, nanos / 1000)));
    }

    /** Forgets what was recorded (the warmup's). */
    void reset() {
        for (Recorder r : recorders) {
            r.reset();
        }
    }

    /** Each step's histogram of what was recorded since the last reset, by name, in order. */
    Map<String, Histogram> take() {
        Map<String, Histogram> steps = new LinkedHashMap<>();
        for (int i = 0; i < recorders.length; i++) {
            steps.put(names.get(i), recorders[i].getIntervalHistogram());
        }
        return steps;
    }
}
