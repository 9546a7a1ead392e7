package io.ricochet.loadgen.report.threshold;

import io.ricochet.jmh.BenchmarkBase;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.stats.RunStats;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the live judge costs once an interval: eleven thresholds, six of them on three windows (30 s, 5 s, 1 s), each
 * interval a million latencies spread over 100 µs to 5 ms, as an echo at 1M requests/s hands over. Once a second in a
 * run, on the thread that waits for the intervals (a controller's: on the merged ones).
 */
@State(Scope.Thread)
public class LiveThresholdsBenchmark extends BenchmarkBase {
    private LiveThresholds live;
    private Histogram latency;
    private RunStats.Counts delta;
    private long index;

    @Setup
    public void setup() {
        List<Threshold> thresholds = Stream.of("p99[5s]<10s", "p999[5s]<10s", "max[1s]<60s", "errors[5s]<1G",
                "bad[1s]==0;abort", "qps[5s]>1", "p99[30s]<10s", "p50<10s", "errors==0", "error_rate<1%", "requests>0")
                .map(Threshold::parse).toList();
        live = new LiveThresholds(thresholds, Duration.ofSeconds(1), "echo", null);
        latency = RunStats.newHistogram();
        Random random = new Random(1);
        for (int i = 0; i < 1_000_000; i++) {
            latency.recordValue(100 + random.nextInt(4_900));
        }
        delta = new RunStats.Counts(1_000_000, 1_000_000, 0, 0, 0, 0, 64_000_000, 0, 0);
    }

    @Benchmark
    public LiveThresholds judgeOneInterval() {
        long i = index++;
        live.accept(new Interval(i, i + 1, i * 1000, (i + 1) * 1000, 100, delta, latency, null, null, null, 0));
        return live;
    }
}
