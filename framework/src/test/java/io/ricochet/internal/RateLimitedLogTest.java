package io.ricochet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

@Timeout(60)
class RateLimitedLogTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void logsOncePerIntervalHoweverOftenItIsAsked() {
        RateLimitedLog log = new RateLimitedLog(LoggerFactory.getLogger(RateLimitedLogTest.class), 10 * SECOND);
        IOException cause = new IOException("Too many open files");
        long logged = 0;
        // A tight loop for 35 s of clock: one line at 0 s, 10 s, 20 s and 30 s.
        for (long now = 0; now < 35 * SECOND; now += SECOND / 1000) {
            logged += log.warn(now, "accept failed", cause) ? 1 : 0;
        }
        assertEquals(4, logged);
        assertFalse(log.warn(35 * SECOND, "accept failed", cause));
        assertTrue(log.warn(40 * SECOND, "accept failed", cause));
    }

    /** One log shared by the connections of a server on all its event loops still logs once per interval. */
    @Test
    void loggersOnManyThreadsShareTheInterval() throws Exception {
        RateLimitedLog log = new RateLimitedLog(LoggerFactory.getLogger(RateLimitedLogTest.class), 10 * SECOND);
        int threads = 4;
        AtomicInteger logged = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 10_000; i++) {
                        logged.addAndGet(log.warn(SECOND, "refused a peer") ? 1 : 0);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, logged.get());
        assertTrue(log.warn(11 * SECOND, "refused a peer"));
    }
}
