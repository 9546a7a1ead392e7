package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    static final class ScriptedLoad implements Load {
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
            return new RunStats.Counts(sent, sent, 0, 0, 0, 0, sent * 64, 0, 0);
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
        public boolean awaitFinished(long nanos) {
            counts();
            return finished();
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
        public LoadFacts facts() {
            return new LoadFacts("nio", "closed_loop", null, null, null, null, 0, Map.of(), List.of());
        }

        @Override
        public Progress progress() {
            return new Progress.Timed(() -> null);
        }

        @Override
        public void close() {
        }
    }

    /** The hooks of a worker, and the listener of its intervals. */
    static final class Recording implements RunHooks, RunListener {
        final List<Interval> intervals = new ArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        int measuring;

        @Override
        public void interval(Interval data, double lengthS) {
            intervals.add(data);
        }

        @Override
        public void measuring() {
            measuring++;
        }

        @Override
        public boolean stopRequested() {
            return stop.get();
        }
    }

    private static Measurement run(ScriptedLoad load, Schedule schedule, Recording hooks, PrintStream progress)
            throws InterruptedException {
        return new LoadDriver(schedule, hooks, progress).run(load, hooks);
    }

    @Test
    void aLoadWithAFixedAmountOfWorkEndsWhenItIsDoneAndItsIntervalsAddUpToTheTotal() throws Exception {
        ScriptedLoad load = new ScriptedLoad(50);
        Recording hooks = new Recording();
        Measurement measured = run(load, Schedule.untilFinished(Duration.ofMillis(1), Duration.ofSeconds(3)), hooks,
                null);
        assertEquals(List.of("start", "stop", "drain"), load.calls);
        assertEquals(Duration.ofSeconds(3), load.drained);
        long okInIntervals = hooks.intervals.stream().mapToLong(i -> i.delta().ok()).sum();
        assertEquals(measured.total().ok(), okInIntervals);
        assertTrue(measured.total().ok() >= 40, "ran until the load said it was done: " + measured.total());
        assertEquals(hooks.intervals.size(), measured.latencies().service().getTotalCount(),
                "one latency per interval, none lost");
        assertEquals(3, hooks.intervals.get(0).openConnections());
        assertEquals(1, hooks.measuring, "the baselines are taken once, before the first request");
        assertEquals("nio", measured.facts().io(), "the load's facts come with its measurement");
    }

    @Test
    void aStopFromTheControllerEndsARunWithoutAnEndAndDrainsIt() throws Exception {
        ScriptedLoad load = new ScriptedLoad(0);
        Recording hooks = new Recording();
        hooks.stop.set(true);
        Measurement measured = run(load, new Schedule(Duration.ZERO, null, Duration.ofSeconds(60), Duration.ofMillis(5)),
                hooks, null);
        assertEquals(List.of("start", "stop", "drain"), load.calls);
        assertEquals(1, hooks.intervals.size(), "one interval, cut short by the stop");
        assertEquals(measured.total(), hooks.intervals.get(0).delta());
    }

    @Test
    void warmupIsNotCounted() throws Exception {
        ScriptedLoad load = new ScriptedLoad(0);
        Recording hooks = new Recording();
        hooks.stop.set(true);
        Measurement measured = run(load, new Schedule(Duration.ofMillis(1), null, Duration.ofSeconds(60),
                Duration.ZERO), hooks, null);
        // The base is read after warmup (10), the end once (20): only the ten after warmup count.
        assertEquals(10, measured.total().ok());
        assertEquals(1, measured.latencies().service().getTotalCount(), "warmup's latency is dropped");
        assertEquals(1, hooks.measuring, "the baselines are taken after the warmup, once");
    }

    @Test
    void aFutileLoadEndsTheRunEarlyAndSaysSo() throws Exception {
        ScriptedLoad load = new ScriptedLoad(0);
        load.futile = "every connect failed";
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Recording hooks = new Recording();
        run(load, new Schedule(Duration.ZERO, Duration.ofHours(1), Duration.ofSeconds(60), Duration.ofSeconds(10)),
                hooks, new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertEquals(List.of("start", "stop", "drain"), load.calls);
        assertEquals(Duration.ZERO, load.drained, "what is in flight is failed at once, not waited for until its deadline");
        assertEquals(1, hooks.intervals.size(), "ended in its first interval, not after an hour");
        assertTrue(progress.toString(StandardCharsets.UTF_8)
                .contains("stopping early: every connect failed (the summary's first error says why)"), progress.toString());
    }
}
