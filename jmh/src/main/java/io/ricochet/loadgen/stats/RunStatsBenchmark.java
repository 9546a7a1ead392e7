package io.ricochet.loadgen.stats;

import io.ricochet.jmh.BenchmarkBase;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Recording one verified reply the way the load generator does: one single-writer HdrHistogram recorder per loop. */
@State(Scope.Thread)
public class RunStatsBenchmark extends BenchmarkBase {
    private RunStats stats;
    private long now;

    @Setup
    public void setup() {
        stats = new RunStats(1);
        now = System.nanoTime();
    }

    @Benchmark
    public void closedLoop() {
        long t = now += 57_000;
        stats.recordReply(0, t - 50_000, t - 50_000, t, false);
    }

    @Benchmark
    public void openLoop() {
        long t = now += 57_000;
        stats.recordReply(0, t - 90_000, t - 50_000, t, true);
    }
}
