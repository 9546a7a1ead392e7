package io.ricochet.loadgen.distributed;

import com.google.protobuf.ByteString;
import io.ricochet.jmh.BenchmarkBase;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.stats.RunStats;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The controller's cost per worker interval: parse the report, decode its compressed histogram once and
 * add it to the interval's, the worker's and the run's (what {@code RunMerger.add} does, the run's handshake total among them), then emit
 * the interval. A thousand of these per second must
 * take under 10% of one core, i.e. under 100 µs each. One interval is emitted per 1,000 reports. {@code values} is how many latencies the interval
 * recorded; {@code spread} how many distinct buckets they fill (a tight or a wide distribution).
 */
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HistogramMergeBenchmark extends BenchmarkBase {
    @Param({"100000"})
    public int values;

    @Param({"narrow", "wide"})
    public String spread;

    private ByteString report;
    private final IntervalMerger merger = new IntervalMerger();
    private final Histogram worker = RunStats.newHistogram();
    private final Histogram run = RunStats.newHistogram();
    private final Histogram service = RunStats.newHistogram();
    private final Histogram connect = RunStats.newHistogram();
    private final Histogram handshake = RunStats.newHistogram();
    private long now;

    @Setup
    public void setup() {
        SplittableRandom random = new SplittableRandom(SEED);
        Histogram recorded = RunStats.newHistogram();
        for (int i = 0; i < values; i++) {
            // narrow: 100..400 µs; wide: log-uniform 20 µs .. 2 s, a bad interval's tail.
            long micros = spread.equals("narrow") ? 100 + random.nextInt(300)
                    : (long) Math.exp(Math.log(20) + random.nextDouble() * (Math.log(2_000_000) - Math.log(20)));
            recorded.recordValue(micros);
        }
        report = IntervalReport.newBuilder().setIndex(3).setInterval(42).setOk(values)
                .setLatency(HistogramCodec.encode(recorded)).build().toByteString();
    }

    @Benchmark
    public long decodeAndAdd() throws Exception {
        IntervalReport r = IntervalReport.parseFrom(report);
        merger.add(r, now++, worker, run, service, connect, handshake);
        // A thousand workers' reports make one interval, which the controller then emits.
        if (now % 1000 == 0) {
            merger.poll(java.util.Set.of(), now, 0, true);
        }
        return run.getTotalCount();
    }
}
