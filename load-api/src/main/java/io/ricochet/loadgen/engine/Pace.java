package io.ricochet.loadgen.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What every lane of one load shares of its pacing: whether it may still send, the run-wide request limit (a sweep
 * step's count), the open-loop interval of each lane or the rate schedule they share, and how many lanes with a quota
 * of their own still have work.
 * When the last request the limits allow has been started, the phase's action runs once: the load then finishes when
 * its drivers are idle.
 */
final class Pace {
    private final long maxRequests;
    private final long intervalNanos;
    /** The rate schedule, or null: request n of the load is due when the schedule's count reaches n + ½. */
    private final Stages stages;
    /** The lanes that share the schedule: lane i sends requests i, i + lanes, i + 2·lanes, … */
    private final int lanes;
    /** When the schedule began: the load's start. */
    private volatile long originNanos;
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
        this(maxRequests, intervalNanos, null, 1, onAllStarted);
    }

    /**
     * @param stages a rate schedule that {@code lanes} lanes share, or null
     * @param lanes  the lanes sharing {@code stages}, numbered 0 to {@code lanes - 1}
     */
    Pace(long maxRequests, long intervalNanos, Stages stages, int lanes, Runnable onAllStarted) {
        if (stages != null && (stages.kind() != Stages.Kind.RATE || intervalNanos > 0)) {
            throw new IllegalArgumentException("stages: " + stages + " (expected: rates, without a constant rate)");
        }
        this.maxRequests = maxRequests;
        this.intervalNanos = intervalNanos;
        this.stages = stages;
        this.lanes = Math.max(1, lanes);
        this.onAllStarted = onAllStarted;
        this.originNanos = System.nanoTime();
    }

    long intervalNanos() {
        return intervalNanos;
    }

    /** The rate schedule the lanes share, or null. */
    Stages stages() {
        return stages;
    }

    /** Whether requests go at times of their own (a rate or a rate schedule) rather than as replies free slots. */
    boolean openLoop() {
        return intervalNanos > 0 || stages != null;
    }

    /** The schedule starts now: called as the load starts. */
    void begin(long nowNanos) {
        originNanos = nowNanos;
    }

    /** When the schedule began. */
    long originNanos() {
        return originNanos;
    }

    /** The first of {@code lane}'s slots (its 0th, 1st, … request) not yet due at {@code nowNanos}. */
    long firstSlot(long lane, long nowNanos) {
        double due = stages.countBy(nowNanos - originNanos);
        return Math.max(0, (long) Math.ceil((due - 0.5 - Math.floorMod(lane, lanes)) / lanes));
    }

    /** When {@code lane}'s {@code slot} is due; {@link Long#MAX_VALUE} if after the schedule's end. */
    long slotNanos(long slot, long lane) {
        long at = stages.nanosOf((double) slot * lanes + Math.floorMod(lane, lanes) + 0.5);
        return at == Long.MAX_VALUE ? Long.MAX_VALUE : originNanos + at;
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
