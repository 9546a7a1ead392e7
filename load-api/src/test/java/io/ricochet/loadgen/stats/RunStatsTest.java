package io.ricochet.loadgen.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RunStatsTest {
    private static final long MICRO = 1_000;

    @Test
    void repliesRecordedInABatchAreDrainedOnceAndOnlyOnce() {
        RunStats stats = new RunStats(2);
        long batch = stats.beginReplies(1);
        try {
            stats.recordBatchedReply(1, 0, 0, 250 * MICRO, false);
            stats.recordBatchedReply(1, 0, 0, 750 * MICRO, false);
        } finally {
            stats.endReplies(1, batch);
        }
        stats.recordReply(0, 0, 0, 100 * MICRO, false);

        Histogram corrected = RunStats.newHistogram();
        Histogram service = RunStats.newHistogram();
        stats.drainInto(corrected, service, RunStats.newHistogram());
        assertEquals(3, service.getTotalCount());
        assertEquals(100, service.getMinValue());
        assertEquals(750, service.getMaxValue());
        // Closed loop: the time from the intended send is the time from the send, so it is not recorded twice.
        assertEquals(0, corrected.getTotalCount());

        stats.recordReply(0, 0, 0, 40 * MICRO, false);
        Histogram next = RunStats.newHistogram();
        stats.drainInto(RunStats.newHistogram(), next, RunStats.newHistogram());
        assertEquals(1, next.getTotalCount());
        assertEquals(40, next.getMaxValue());
    }

    @Test
    void openLoopRecordsFromTheIntendedSendAsWell() {
        RunStats stats = new RunStats(1);
        stats.recordReply(0, 0, 300 * MICRO, 500 * MICRO, true);
        Histogram corrected = RunStats.newHistogram();
        Histogram service = RunStats.newHistogram();
        stats.drainInto(corrected, service, RunStats.newHistogram());
        assertEquals(500, corrected.getMaxValue());
        assertEquals(200, service.getMaxValue());
    }

    @Test
    void aDrainFromAnotherThreadWhileALoopRecordsLosesNothing() throws Exception {
        RunStats stats = new RunStats(1);
        int batches = 20_000;
        CompletableFuture<Void> loop = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < batches; i++) {
                long batch = stats.beginReplies(0);
                try {
                    for (int r = 0; r < 16; r++) {
                        stats.recordBatchedReply(0, 0, 0, (1 + r) * MICRO, false);
                    }
                } finally {
                    stats.endReplies(0, batch);
                }
            }
        });
        Histogram service = RunStats.newHistogram();
        while (!loop.isDone()) {
            stats.drainInto(RunStats.newHistogram(), service, RunStats.newHistogram());
        }
        loop.get(30, TimeUnit.SECONDS);
        stats.drainInto(RunStats.newHistogram(), service, RunStats.newHistogram());
        assertEquals(16L * batches, service.getTotalCount());
    }
}
