package io.ricochet.loadgen.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What every lane of one load shares of its pacing: whether it may still send, the run-wide request limit (a sweep
 * step's count), the open-loop interval of each lane, and how many lanes with a quota of their own still have work.
 * When the last request the limits allow has been started, the phase's action runs once: the load then finishes when
 * its drivers are idle.
 */
final class Pace {
    private final long maxRequests;
    private final long intervalNanos;
    private final AtomicLong started = new AtomicLong();
    private final AtomicInteger lanesWithWork = new AtomicInteger();
    private volatile Runnable onAllStarted;
    private volatile boolean sending = true;
    private volatile boolean allStarted;

    /**
     * @param maxRequests   requests the load may start in all, 0 for no limit
     * @param intervalNanos each lane's open-loop interval, 0 in closed loop
     * @param onAllStarted  run once, from the thread that started the last request the limit allows
     */
    Pace(long maxRequests, long intervalNanos, Runnable onAllStarted) {
        this.maxRequests = maxRequests;
        this.intervalNanos = intervalNanos;
        this.onAllStarted = onAllStarted;
    }

    long intervalNanos() {
        return intervalNanos;
    }

    boolean sending() {
        return sending;
    }

    void stopSending() {
        sending = false;
    }

    /** False once {@code maxRequests} have been started. */
    boolean mayStartRequest() {
        if (maxRequests == 0) {
            return true;
        }
        if (started.get() >= maxRequests) {
            return false;
        }
        long n = started.incrementAndGet();
        if (n == maxRequests) {
            allStarted();
        }
        return n <= maxRequests;
    }

    /** Whether a run-wide limit was given and all of it has been started. */
    boolean limitReached() {
        return maxRequests > 0 && started.get() >= maxRequests;
    }

    /**
     * A phase in which {@code lanes} lanes each start a quota of their own (an RPC client's share); {@code whenStarted}
     * runs once the last of them has started its last request, at once if {@code lanes} is 0.
     */
    void phase(int lanes, Runnable whenStarted) {
        allStarted = false;
        onAllStarted = whenStarted;
        lanesWithWork.set(lanes);
        if (lanes == 0) {
            allStarted();
        }
    }

    /** A lane has started the last request of its quota. */
    void laneExhausted() {
        if (lanesWithWork.decrementAndGet() == 0) {
            allStarted();
        }
    }

    private synchronized void allStarted() {
        if (!allStarted) {
            allStarted = true;
            onAllStarted.run();
        }
    }
}
