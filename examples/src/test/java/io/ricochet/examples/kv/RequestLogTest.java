package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class RequestLogTest {

    @Test
    void checkedRequestsMakeRoomSoTheLogStaysSmall() {
        RequestLog log = new RequestLog();
        for (long s = 0; s < 10_000; s++) {
            log.add(put(s));
            // Four in flight: each reply is checked four requests after its request.
            if (s >= 4) {
                assertEquals(s - 4, log.check(s - 4).sequence());
            }
        }
        assertEquals(RequestLog.INITIAL, log.capacity());
    }

    @Test
    void theLogGrowsWithTheRequestsAwaitingRepliesUpToItsBound() {
        RequestLog log = new RequestLog();
        for (long s = 0; s < 200; s++) {
            log.add(put(s));
        }
        assertEquals(256, log.capacity());
        for (long s = 0; s < 200; s++) {
            assertEquals(s, log.check(s).sequence());
        }
        for (long s = 100; s < RequestLog.MAX * 3; s++) {
            log.add(put(s));
        }
        assertEquals(RequestLog.MAX, log.capacity());
        assertNull(log.check(RequestLog.MAX * 2 - 1), "forgotten: more than MAX requests before the newest");
        assertEquals(RequestLog.MAX * 2L, log.check(RequestLog.MAX * 2).sequence());
    }

    @Test
    void theLastRequestsAreRememberedAfterTheirChecks() {
        RequestLog log = new RequestLog();
        for (long s = 0; s < 1_000; s++) {
            log.add(put(s));
            log.check(s);
        }
        for (long s = 1_000 - RequestLog.INITIAL; s < 1_000; s++) {
            assertEquals(s, log.check(s).sequence(), "checked again");
        }
        assertNull(log.check(1_000 - RequestLog.INITIAL - 1));
    }

    @Test
    void aRequestCheckedAgainIsFoundAgainAndOneNeverMadeIsNot() {
        RequestLog log = new RequestLog();
        KvRequest made = put(7);
        log.add(made);
        assertSame(made, log.check(7));
        assertSame(made, log.check(7));
        assertNull(log.check(8));
        assertNull(log.check(7 + RequestLog.INITIAL));
    }

    private static KvRequest put(long sequence) {
        return new KvRequest(sequence, false, 0, "v" + sequence);
    }
}
