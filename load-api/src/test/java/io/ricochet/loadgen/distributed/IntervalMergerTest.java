package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.stats.RunStats;
import java.time.Duration;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The merger holds only intervals within its window of the next to emit, and a bad report changes nothing. */
class IntervalMergerTest {
    private final Histogram worker = RunStats.newHistogram();
    private final Histogram latency = RunStats.newHistogram();
    private final Histogram service = RunStats.newHistogram();
    private final Histogram connect = RunStats.newHistogram();

    private void add(IntervalMerger merger, IntervalReport report) {
        merger.add(report, 0, worker, latency, service, connect);
    }

    @Test
    void intervalsPastTheWindowAreRefusedSoPendingStaysBounded() {
        IntervalMerger merger = new IntervalMerger(10);
        for (long i = 0; i < 2_000; i++) {
            IntervalReport r = FakeWorker.report(0, i).setOk(1).build();
            if (i <= 10) {
                add(merger, r);
            } else {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> add(merger, r));
                assertTrue(e.getMessage().startsWith("interval: " + i + " (expected: <= 10"), e.getMessage());
            }
        }
        assertEquals(11, merger.pendingIntervals());
        // Emitting moves the window on.
        assertEquals(0, merger.poll(Set.of(0), 0, Long.MAX_VALUE, false).interval);
        add(merger, FakeWorker.report(0, 11).build());
        assertEquals(11, merger.pendingIntervals());
    }

    @Test
    void aLateReportStillJoinsTheNextInterval() {
        IntervalMerger merger = new IntervalMerger(10);
        add(merger, FakeWorker.report(0, 0).setOk(1).build());
        merger.poll(Set.of(0), 0, Long.MAX_VALUE, false);
        add(merger, FakeWorker.report(1, 0).setOk(2).build());
        IntervalMerger.Merged next = merger.poll(Set.of(), 0, Long.MAX_VALUE, true);
        assertEquals(1, next.interval);
        assertEquals(2, next.counts.ok);
    }

    @Test
    void aReportWithABadHistogramMergesNothing() {
        IntervalMerger merger = new IntervalMerger(10);
        Histogram h = RunStats.newHistogram();
        h.recordValue(100);
        IntervalReport bad = FakeWorker.report(0, 0).setOk(5).setLatency(HistogramCodec.encode(h))
                .setConnect(com.google.protobuf.ByteString.copyFromUtf8("not a histogram")).build();
        assertThrows(IllegalArgumentException.class, () -> add(merger, bad));
        assertEquals(0, merger.pendingIntervals());
        assertEquals(0, worker.getTotalCount() + latency.getTotalCount());
    }

    @Test
    void theControllersWindowCoversHowFarALiveWorkerGetsAhead() {
        assertEquals(IntervalMerger.DEFAULT_WINDOW, Controller.intervalWindow(Duration.ofSeconds(1)));
        assertEquals(IntervalMerger.DEFAULT_WINDOW, Controller.intervalWindow(Duration.ofMinutes(1)));
        // 10 ms intervals: overdue after 1.02 s, polled every 100 ms, so a worker may be ~113 ahead.
        assertTrue(Controller.intervalWindow(Duration.ofMillis(10)) >= 2 * 113);
    }

    /** A scrape that held emitting up once made the window refuse an honest worker reporting on time. */
    @Test
    void theWindowFollowsTheRunsClockWhenEmittingLags() {
        IntervalMerger merger = new IntervalMerger(10);
        merger.advanceClock(100);
        add(merger, FakeWorker.report(0, 105).build());
        add(merger, FakeWorker.report(0, 110).build());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> add(merger, FakeWorker.report(0, 111).build()));
        assertTrue(e.getMessage().startsWith("interval: 111 (expected: <= 110"), e.getMessage());
        merger.advanceClock(50);
        add(merger, FakeWorker.report(0, 109).build());
    }

    @Test
    void handshakesAddUpOverWorkersAndABadOneRefusesTheReport() {
        IntervalMerger merger = new IntervalMerger(10);
        Histogram handshake = RunStats.newHistogram();
        Histogram one = RunStats.newHistogram();
        one.recordValue(700);
        Histogram two = RunStats.newHistogram();
        two.recordValue(900);
        two.recordValue(1100);
        merger.add(FakeWorker.report(0, 0).setHandshake(HistogramCodec.encode(one)).build(), 0, worker, latency, service,
                connect, handshake);
        merger.add(FakeWorker.report(1, 0).setHandshake(HistogramCodec.encode(two)).build(), 0, worker, latency, service,
                connect, handshake);
        assertEquals(3, handshake.getTotalCount());
        assertEquals(1100, handshake.getMaxValue(), 1);
        assertThrows(IllegalArgumentException.class, () -> merger.add(FakeWorker.report(2, 0)
                .setHandshake(com.google.protobuf.ByteString.copyFromUtf8("not a histogram")).build(), 0, worker,
                latency, service, connect, handshake));
        assertThrows(IllegalArgumentException.class, () -> merger.add(FakeWorker.report(2, 0).setHandshakeFailures(-1)
                .build(), 0, worker, latency, service, connect, handshake));
        assertEquals(3, handshake.getTotalCount(), "a refused report adds nothing");
    }

    /** What the controller's --metrics-port serves comes from here: every count a worker reports is summed. */
    @Test
    void aMergedIntervalCarriesEveryCountAndTheHandshakes() {
        IntervalMerger merger = new IntervalMerger(10);
        Histogram handshake = RunStats.newHistogram();
        handshake.recordValue(900);
        add(merger, FakeWorker.report(0, 0).setSent(12).setOk(10).setErrors(1).setLate(1).setConnects(3)
                .setConnectFailures(2).setHandshake(HistogramCodec.encode(handshake)).setHandshakeFailures(1).build());
        add(merger, FakeWorker.report(1, 0).setSent(8).setOk(7).setBad(1).setUnexpected(3).setConnects(1).build());
        assertTrue(merger.timesHandshakes());
        Interval merged = merger.poll(Set.of(0, 1), 0, Long.MAX_VALUE, false).toInterval(merger.timesHandshakes());
        assertEquals(new RunStats.Counts(20, 17, 1, 1, 1, 3, 0, 4, 2), merged.delta());
        assertEquals(1, merged.handshake().getTotalCount());
        assertEquals(1, merged.handshakeFailures());
    }
}
