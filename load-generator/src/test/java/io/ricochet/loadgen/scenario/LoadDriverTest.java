package io.ricochet.loadgen.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.report.IntervalData;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.stats.RunStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The one driver loop, on a scripted load: what ends a run, what counts, and that the intervals add up. */
class LoadDriverTest {

    /** A load whose counters grow by ten requests (and one latency of 100 µs) at every read. */
    private static final class ScriptedLoad implements Load {
        final List<String> calls = new ArrayList<>();
        final long finishAt;
        long sent;
        Duration drained;
        String futile;

        ScriptedLoad(long finishAt) {
            this.finishAt = finishAt;
        }

        @Override
        public void prepare() {
            calls.add("prepare");
        }

        @Override
        public void start() {
            calls.add("start");
        }

        @Override
        public RunStats.Counts counts() {
            sent += 10;
            return new RunStats.Counts(sent, sent, 0, 0, 0, sent * 64, 0, 0);
        }

        @Override
        public int openConnections() {
            return 3;
        }

        @Override
        public void drainLatencies(Latencies into) {
            into.service().recordValue(100);
        }

        @Override
        public boolean openLoop() {
            return false;
        }

        @Override
        public boolean finished() {
            return finishAt > 0 && sent >= finishAt;
        }

        @Override
        public String futile() {
            return futile;
        }

        @Override
        public void stopSending() {
            calls.add("stop");
        }

        @Override
        public void drain(Duration timeout) {
            calls.add("drain");
            drained = timeout;
        }

        @Override
        public void describe(Map<String, Object> config) {
            config.put("latency_kind", "closed_loop");
        }

        @Override
        public ProgressLine progressLine(Schedule schedule) {
            return (interval, row) -> "";
        }

        @Override
        public void close() {
        }
    }

    private static final class Recording implements RunHooks {
        final List<IntervalData> intervals = new ArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        Object summary;

        @Override
        public void interval(IntervalData data) {
            intervals.add(data);
        }

        @Override
        public boolean stopRequested() {
            return stop.get();
        }

        @Override
        public void finished(Object summary) {
            this.summary = summary;
        }
    }

    private static RunOptions options(RunHooks hooks) {
        return new RunOptions("test", null, null, null, Map.of(), hooks);
    }

    @Test
    void aLoadWithAFixedAmountOfWorkEndsWhenItIsDoneAndItsIntervalsAddUpToTheTotal() throws Exception {
        ScriptedLoad load = new ScriptedLoad(50);
        Recording hooks = new Recording();
        Measurement measured = new LoadDriver(options(hooks), Schedule.untilFinished(Duration.ofMillis(1),
                Duration.ofSeconds(3))).run(load, (m, report) -> m);
        assertEquals(List.of("prepare", "start", "stop", "drain"), load.calls);
        assertEquals(Duration.ofSeconds(3), load.drained);
        long okInIntervals = hooks.intervals.stream().mapToLong(i -> i.delta().ok()).sum();
        assertEquals(measured.total().ok(), okInIntervals);
        assertTrue(measured.total().ok() >= 40, "ran until the load said it was done: " + measured.total());
        assertEquals(hooks.intervals.size(), measured.latencies().service().getTotalCount(),
                "one latency per interval, none lost");
        assertEquals(3, hooks.intervals.get(0).openConnections());
        assertEquals(measured, hooks.summary, "the summary is handed over");
    }

    @Test
    void aStopFromTheControllerEndsARunWithoutAnEndAndDrainsIt() throws Exception {
        ScriptedLoad load = new ScriptedLoad(0);
        Recording hooks = new Recording();
        hooks.stop.set(true);
        Measurement measured = new LoadDriver(options(hooks), new Schedule(Duration.ZERO, null, Duration.ofSeconds(60),
                Duration.ofMillis(5))).run(load, (m, report) -> m);
        assertEquals(List.of("prepare", "start", "stop", "drain"), load.calls);
        assertEquals(1, hooks.intervals.size(), "one interval, cut short by the stop");
        assertEquals(measured.total(), hooks.intervals.get(0).delta());
    }

    @Test
    void warmupIsNotCounted() throws Exception {
        ScriptedLoad load = new ScriptedLoad(0);
        Recording hooks = new Recording();
        hooks.stop.set(true);
        Measurement measured = new LoadDriver(options(hooks), new Schedule(Duration.ofMillis(1), null,
                Duration.ofSeconds(60), Duration.ZERO)).run(load, (m, report) -> m);
        // The base is read after warmup (10), the end once (20): only the ten after warmup count.
        assertEquals(10, measured.total().ok());
        assertEquals(1, measured.latencies().service().getTotalCount(), "warmup's latency is dropped");
    }

    @Test
    void aFutileLoadEndsTheRunEarlyAndSaysSo() throws Exception {
        ScriptedLoad load = new ScriptedLoad(0);
        load.futile = "every connect failed";
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Recording hooks = new Recording();
        new LoadDriver(new RunOptions("test", null, null, new PrintStream(progress, true, StandardCharsets.UTF_8),
                Map.of(), hooks), new Schedule(Duration.ZERO, Duration.ofHours(1), Duration.ofSeconds(60),
                Duration.ZERO)).run(load, (m, report) -> m);
        assertEquals(List.of("prepare", "start", "stop", "drain"), load.calls);
        assertEquals(1, hooks.intervals.size(), "ended in its first interval, not after an hour");
        assertTrue(progress.toString(StandardCharsets.UTF_8)
                .contains("stopping early: every connect failed (the summary's first error says why)"), progress.toString());
    }
}
