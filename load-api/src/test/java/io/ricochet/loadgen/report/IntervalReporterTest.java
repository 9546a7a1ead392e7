package io.ricochet.loadgen.report;

import io.ricochet.loadgen.engine.Interval;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ricochet.loadgen.scrape.ServerSample;
import io.ricochet.loadgen.stats.RunStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class IntervalReporterTest {

    private static Interval interval(Histogram latency) {
        return new Interval(3, 4.0, 1_000, 1_500, 100, new RunStats.Counts(1_200, 1_000, 150, 50, 0, 0, 64_000, 0, 0),
                latency, null, null, null, 0);
    }

    private static Histogram latency() {
        Histogram h = RunStats.newHistogram();
        for (int us = 1; us <= 1000; us++) {
            h.recordValue(us);
        }
        return h;
    }

    @Test
    void aRowTakesItsRateOverTheIntervalsOwnLengthAndHandsTheIntervalOver() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Interval> handedOver = new ArrayList<>();
        IntervalReporter reporter = new IntervalReporter(null, new PrintStream(out, true, StandardCharsets.UTF_8),
                handedOver::add);
        Interval data = interval(latency());
        IntervalRow row = reporter.emit(data, 0.5, new ServerSample(0.25, 1e8, Double.NaN, Double.NaN, Double.NaN, Double.NaN), ProgressLine.timed(Duration.ofSeconds(10)));
        assertEquals(2_400.0, row.qps(), 1e-9, "1,200 requests ended in half a second");
        assertEquals(1_000, row.ok());
        assertEquals(150, row.bad());
        assertEquals(50, row.errors());
        assertEquals(0.25, row.serverCpu());
        assertEquals(List.of(data), handedOver);
        assertSame(data, handedOver.get(0));
        assertEquals(String.format("[%6.1fs/%.1fs] connections 100  qps 2,400  p50 %,dus  p99 %,dus  errors 50  bad 150%n",
                4.0, 10.0, row.p50Us(), row.p99Us()), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void eachKindOfRunHasItsOwnLine() {
        IntervalRow row = new IntervalRow(2.0, 8, 10, 9, 1, 0, 0, 5.0, 120, 1_500, 2_000, Double.NaN, Double.NaN);
        Interval data = interval(latency());
        assertEquals(String.format("[   2.0s] received 1,234/5,000  qps 5  p50 120us  p99 1,500us  errors 0  bad 1%n"),
                ProgressLine.counted(() -> 1_234, 5_000).format(data, row));
        assertEquals(String.format("[   2.0s] workers 3/4  connections 8  qps 5  p50 120us  p99 1,500us  errors 0  bad 1%n"),
                ProgressLine.merged(3, 4).format(data, row));
        assertEquals(String.format("[   2.0s/6.0s] connections 8  qps 5  p50 120us  p99 1,500us  errors 0  bad 1%n"),
                ProgressLine.timed(Duration.ofSeconds(6)).format(data, row));
        IntervalRow unasked = new IntervalRow(2.0, 8, 10, 9, 1, 0, 4, 5.0, 120, 1_500, 2_000, Double.NaN, Double.NaN);
        assertEquals(String.format("[   2.0s/6.0s] connections 8  qps 5  p50 120us  p99 1,500us  errors 0  bad 1  "
                + "unexpected 4%n"), ProgressLine.timed(Duration.ofSeconds(6)).format(data, unasked));
        // 1,200 sent and 1,000 received in the interval's own 500 ms.
        assertEquals(String.format("[   2.0s/6.0s] sent 2,400 pps  received 2,000 pps  bad 7%n"),
                ProgressLine.stream(Duration.ofSeconds(6), () -> 7).format(data, row));
    }

    @Test
    void connectFailuresOfTheIntervalEndTheLineWithTheLastReason() {
        IntervalRow row = new IntervalRow(2.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Double.NaN, Double.NaN);
        Interval failing = new Interval(1, 2.0, 1_000, 2_000, 0, new RunStats.Counts(0, 0, 0, 0, 0, 0, 0, 0, 12),
                latency(), null, null, null, 0);
        assertEquals(String.format("[   2.0s/6.0s] connections 0  qps 0  p50 0us  p99 0us  errors 0  bad 0  "
                + "connect failures 12 (cannot connect to 127.0.0.1:1: connection refused)%n"),
                ProgressLine.timed(Duration.ofSeconds(6), () -> "cannot connect to 127.0.0.1:1: connection refused")
                        .format(failing, row));
        assertEquals(String.format("[   2.0s] workers 2/2  connections 0  qps 0  p50 0us  p99 0us  errors 0  bad 0  "
                + "connect failures 12%n"), ProgressLine.merged(2, 2).format(failing, row));
    }
}
