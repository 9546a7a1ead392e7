package io.ricochet.loadgen.report.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.stats.RunStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LiveThresholdsTest {
    private static final Duration SECOND = Duration.ofSeconds(1);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final PrintStream progress = new PrintStream(out, true, StandardCharsets.UTF_8);

    /** Interval {@code index} (ending at index + 1 s): {@code ok} replies and {@code errors}, every latency {@code us}. */
    private static Interval interval(long index, long ok, long errors, long us) {
        Histogram latency = RunStats.newHistogram();
        latency.recordValueWithCount(us, Math.max(1, ok));
        RunStats.Counts delta = new RunStats.Counts(ok + errors, ok, 0, errors, 0, 0, ok * 64, 0, 0);
        return new Interval(index, index + 1, index * 1000, (index + 1) * 1000, 4, delta, latency, null, null, null, 0);
    }

    private static List<Threshold> parse(String... expressions) {
        return java.util.Arrays.stream(expressions).map(Threshold::parse).toList();
    }

    private static List<Threshold.Result> atEnd(List<Threshold> thresholds, boolean passed) {
        return thresholds.stream().map(t -> new Threshold.Result(t.expression(), t.metric(), passed, 1.0, null))
                .toList();
    }

    @Test
    void aWindowIsJudgedOnItsLastIntervalsOnceFullAndBreaksTheRunIfAnyWindowBrokeIt() {
        List<Threshold> thresholds = parse("p99[3s]<5ms");
        LiveThresholds live = new LiveThresholds(thresholds, SECOND, "echo", progress);
        // A slow second, then fast ones: the 3 s window that holds it breaks, the later ones do not.
        live.accept(interval(0, 100, 0, 9_000));
        live.accept(interval(1, 100, 0, 1_000));
        assertEquals("", out.toString(StandardCharsets.UTF_8), "a window is not judged before it is full");
        live.accept(interval(2, 100, 0, 1_000));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("threshold p99[3s]<5ms broken at 3.0 s"), out.toString());
        for (long i = 3; i < 10; i++) {
            live.accept(interval(i, 100, 0, 1_000));
        }
        // At the end, the run's p99 (here: passing) is not the verdict: the window that broke is.
        Threshold.Result r = live.complete(atEnd(thresholds, true)).get(0);
        assertFalse(r.passed());
        assertEquals(3.0, r.firstBrokenS());
        assertTrue(r.actual() >= 9_000, "the worst window's figure: " + r.actual());
        assertNull(live.abortReason(), "no ;abort, no abort");
    }

    @Test
    void aWindowThatNeverBreaksPassesWhateverTheRunAsAWhole() {
        List<Threshold> thresholds = parse("errors[2s]<10");
        LiveThresholds live = new LiveThresholds(thresholds, SECOND, "echo", progress);
        // 5 errors a second: 10 in any 2 s window breaks "< 10"; 4 a second never does, though the run has 40.
        for (long i = 0; i < 10; i++) {
            live.accept(interval(i, 100, 4, 1_000));
        }
        Threshold.Result r = live.complete(atEnd(thresholds, false)).get(0);
        assertTrue(r.passed(), r.line());
        assertEquals(8.0, r.actual());
        assertNull(r.firstBrokenS());
    }

    @Test
    void anAbortWaitsForItsDelayThenStopsTheRunOnce() {
        List<Threshold> thresholds = parse("p99<5ms;abort;delay=3s");
        LiveThresholds live = new LiveThresholds(thresholds, SECOND, "echo", progress);
        AtomicInteger stops = new AtomicInteger();
        live.onAbort(stops::incrementAndGet);
        RunHooks hooks = live.hooks(RunHooks.NONE);
        hooks.interval(interval(0, 100, 0, 9_000));
        hooks.interval(interval(1, 100, 0, 9_000));
        assertFalse(hooks.stopRequested(), "broken, but within the delay");
        assertNull(live.abortReason());
        hooks.interval(interval(2, 100, 0, 9_000));
        assertTrue(hooks.stopRequested());
        // HdrHistogram reports 9,000 us as its bucket's highest equivalent value, to 3 significant digits.
        assertTrue(live.abortReason().startsWith("threshold p99<5ms;abort;delay=3s broken at 3.0 s (p99 = 90"),
                live.abortReason());
        hooks.interval(interval(3, 100, 0, 9_000));
        assertEquals(1, stops.get());
        Threshold.Result r = live.complete(atEnd(thresholds, false)).get(0);
        assertEquals(1.0, r.firstBrokenS(), "first broken before the delay ran out");
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("aborting: threshold p99<5ms;abort;delay=3s"));
    }

    @Test
    void aRateIsJudgedOverTheWindowsSeconds() {
        List<Threshold> thresholds = parse("qps[2s]>150");
        LiveThresholds live = new LiveThresholds(thresholds, SECOND, "echo", progress);
        live.accept(interval(0, 200, 0, 100));
        live.accept(interval(1, 200, 0, 100));
        live.accept(interval(2, 50, 0, 100));
        Threshold.Result r = live.complete(atEnd(thresholds, true)).get(0);
        assertFalse(r.passed(), "(200 + 50) / 2 s = 125/s < 150");
        assertEquals(125.0, r.actual());
    }

    @Test
    void aFigureTheCommandDoesNotMeasureIsLeftToTheEnd() {
        List<Threshold> thresholds = parse("loss[1s]<1%;abort");
        LiveThresholds live = new LiveThresholds(thresholds, SECOND, "echo", progress);
        live.accept(interval(0, 100, 0, 100));
        assertNull(live.abortReason());
        Threshold.Result end = new Threshold.Result("loss[1s]<1%;abort", "loss", false, null, "not measured by this command");
        assertEquals(end, live.complete(List.of(end)).get(0));
    }

    @Test
    void aJudgeOfNoneChangesNothing() {
        LiveThresholds none = LiveThresholds.none();
        assertEquals(RunHooks.NONE, none.hooks(RunHooks.NONE));
        List<Threshold.Result> given = List.of(new Threshold.Result("p99<1ms", "p99", true, 5.0, null));
        assertEquals(given, none.complete(given));
    }

    @Test
    void aWindowCountsWholeIntervalsRoundedUp() {
        assertEquals(30, LiveThresholds.intervals(Duration.ofSeconds(30), SECOND));
        assertEquals(2, LiveThresholds.intervals(Duration.ofMillis(1500), SECOND));
        assertEquals(1, LiveThresholds.intervals(Duration.ofMillis(10), SECOND));
        assertNotNull(Threshold.parse("p99[1m30s]<5ms").window());
    }

    @Test
    void aFloorOnATotalIsNotBrokenEarlyOnButAtTheEnd() {
        List<Threshold> thresholds = parse("requests>250", "qps>50");
        LiveThresholds live = new LiveThresholds(thresholds, SECOND, "echo", progress);
        live.accept(interval(0, 100, 0, 100));
        live.accept(interval(1, 100, 0, 100));
        live.accept(interval(2, 100, 0, 100));
        assertEquals("", out.toString(StandardCharsets.UTF_8), "100 of 250 after a second is no breach");
        List<Threshold.Result> end = live.complete(atEnd(thresholds, true));
        assertTrue(end.get(0).passed() && end.get(0).firstBrokenS() == null, end.toString());
    }

    @Test
    void aWindowWithoutRepliesIsNotReadAsFast() {
        List<Threshold> thresholds = parse("p99[2s]<5ms");
        LiveThresholds live = new LiveThresholds(thresholds, SECOND, "echo", progress);
        RunStats.Counts none = new RunStats.Counts(10, 0, 0, 0, 0, 0, 0, 0, 0);
        for (long i = 0; i < 4; i++) {
            live.accept(new Interval(i, i + 1, i * 1000, (i + 1) * 1000, 4, none, RunStats.newHistogram(), null, null,
                    null, 0));
        }
        Threshold.Result end = new Threshold.Result("p99[2s]<5ms", "p99", true, 0.0, null);
        Threshold.Result r = live.complete(List.of(end)).get(0);
        assertNull(r.firstBrokenS());
        assertEquals(0.0, r.actual(), "no window was judged: the end's figure stands");
    }

    @Test
    void aWindowedThresholdOnWhatTheCommandDoesNotMeasureStaysBroken() {
        List<Threshold> thresholds = parse("late[1s]==0");
        LiveThresholds live = new LiveThresholds(thresholds, SECOND, "rpc", progress);
        live.accept(interval(0, 100, 0, 100));
        Threshold.Result end = new Threshold.Result("late[1s]==0", "late", false, null, "not measured by this command");
        assertFalse(live.complete(List.of(end)).get(0).passed());
    }

    @Test
    void verdictsThatAreNotOnePerThresholdAreRefused() {
        LiveThresholds live = new LiveThresholds(parse("p99<1ms"), SECOND, "echo", progress);
        assertThrows(IllegalArgumentException.class, () -> live.complete(List.of()));
    }

    @Test
    void anRpcRunsRateIsItsVerifiedAnswers() {
        List<Threshold> thresholds = parse("qps[1s]>150");
        LiveThresholds frames = new LiveThresholds(thresholds, SECOND, "echo", progress);
        LiveThresholds rpc = new LiveThresholds(thresholds, SECOND, "rpc", progress);
        // 100 ok and 100 errors: 200 ended a second, 100 answered well.
        frames.accept(interval(0, 100, 100, 100));
        rpc.accept(interval(0, 100, 100, 100));
        assertEquals(200.0, frames.complete(atEnd(thresholds, true)).get(0).actual());
        assertEquals(100.0, rpc.complete(atEnd(thresholds, true)).get(0).actual());
    }
}
