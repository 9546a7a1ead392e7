package io.ricochet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

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
}
