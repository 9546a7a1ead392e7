package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A flood of refusals costs counters, not memory, and a line a second, not a line each. */
class RefusedInputsTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aFloodIsCountedWithTheFirstReasonOfEachMethodCut() {
        RefusedInputs refused = new RefusedInputs(Duration.ofSeconds(1));
        for (int i = 0; i < 10_000; i++) {
            refused.record(Coordination.REPORT, "worker 0: reason " + i + " " + "x".repeat(1_000));
        }
        refused.record(Coordination.DONE, "worker 1: done from a stranger");
        assertEquals(10_001, refused.total());
        List<String> problems = refused.problems();
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("refused 10000 worker.report calls (first: worker 0: reason 0 xxx"),
                problems.get(0));
        assertTrue(problems.get(0).length() < RefusedInputs.MAX_REASON_CHARS + 100, problems.get(0));
        assertEquals("refused 1 worker.done call (first: worker 1: done from a stranger)", problems.get(1));
    }

    @Test
    void theLiveLineComesAtMostOnceAGapUnlessFlushed() {
        RefusedInputs refused = new RefusedInputs(Duration.ofSeconds(1));
        assertNull(refused.news(0, false), "nothing refused, nothing to say");
        refused.record(Coordination.REPORT, "worker 0: report from a connection that did not say hello as worker 0");
        assertEquals("controller: 1 input refused so far: refused 1 worker.report call (first: worker 0: report from "
                + "a connection that did not say hello as worker 0)", refused.news(10 * SECOND, false));
        refused.record(Coordination.REPORT, "again");
        assertNull(refused.news(10 * SECOND + SECOND / 2, false), "within the gap");
        assertNotNull(refused.news(11 * SECOND, false));
        assertNull(refused.news(20 * SECOND, false), "nothing new");
        refused.record(Coordination.HELLO, "worker 0 is already CONNECTED");
        assertTrue(refused.news(20 * SECOND, true).startsWith("controller: 3 inputs refused so far"));
    }
}
