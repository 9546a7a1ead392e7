package io.ricochet.loadgen.stats;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What a run measures. Reply latency goes into one pair of HdrHistograms per event loop ({@link LoopLatencies}, its
 * only writer, a read's replies in one critical section), in microseconds from 1 µs to 1 h at 3 significant digits;
 * the reporter swaps out interval histograms and adds them. Counts are 64-bit adders.
 */
public final class RunStats {
    public static final long LOWEST_US = 1;
    public static final long HIGHEST_US = 3_600_000_000L;
    public static final int DIGITS = 3;

    private final LoopLatencies[] replies;
    private final Recorder connectTime = new Recorder(LOWEST_US, HIGHEST_US, DIGITS);
    /** TLS handshakes, from the TCP connect to the handshake's end: a histogram of their own beside connect time. */
    private final Recorder handshakeTime = new Recorder(LOWEST_US, HIGHEST_US, DIGITS);
    public final LongAdder sent = new LongAdder();
    public final LongAdder ok = new LongAdder();
    public final LongAdder bad = new LongAdder();
    public final LongAdder errors = new LongAdder();
    public final LongAdder late = new LongAdder();
    /**
     * Frames the server sent that answer no request (none was outstanding on their connection): counted here, never
     * as requests, and reported.
     */
    public final LongAdder unexpected = new LongAdder();
    public final LongAdder okBytes = new LongAdder();
    public final LongAdder connectFailures = new LongAdder();
    public final LongAdder connectsEstablished = new LongAdder();
    public final LongAdder handshakeFailures = new LongAdder();
    public final LongAdder handshakesDone = new LongAdder();
    /**
     * Connections (or CRR transactions) that ended with requests owed and no reply to them: timed out, or closed by
     * the server. What a run that can measure nothing piles up, one per connection, whatever its pipeline.
     */
    public final LongAdder unansweredEnds = new LongAdder();
    public final AtomicInteger openConnections = new AtomicInteger();
    /** The TLS protocol and suite the first handshake settled on, or null: reported, so a run says what it measured. */
    public final AtomicReference<String> negotiated = new AtomicReference<>();
    /** Runs bounded by a request count are timed from the first send to the last reply. */
    public final AtomicLong firstSendNanos = new AtomicLong();
    public final AtomicLong lastReplyNanos = new AtomicLong();
    /** The first connect, I/O or workload failure, for the summary's {@code first_error}; null if none. */
    public final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    /** Why the first bad reply was bad, and which request it answered, for the summary's {@code first_bad}. */
    public final AtomicReference<String> firstBad = new AtomicReference<>();

    /** Counts a bad reply, keeping its reason (with {@code where}: the connection and request) if it is the first. */
    public void bad(Object where, String reason) {
        bad.increment();
        if (firstBad.get() == null) {
            firstBad.compareAndSet(null, where + ": " + reason);
        }
    }

    /** Keeps {@code failure} as the first failure unless there is one. */
    public void failed(Throwable failure) {
        if (firstFailure.get() == null) {
            firstFailure.compareAndSet(null, failure);
        }
    }

    public RunStats(int loops) {
        replies = new LoopLatencies[loops];
        for (int i = 0; i < loops; i++) {
            replies[i] = new LoopLatencies();
        }
    }

    public static Histogram newHistogram() {
        return new Histogram(LOWEST_US, HIGHEST_US, DIGITS);
    }

    /**
     * Records one verified reply on event loop {@code loop} (its only writer): from the intended and from
     * the actual send. In closed loop the two are the same and only the service time is recorded.
     */
    public void recordReply(int loop, long intendedNanos, long sentNanos, long nowNanos, boolean openLoop) {
        long batch = beginReplies(loop);
        try {
            recordBatchedReply(loop, intendedNanos, sentNanos, nowNanos, openLoop);
        } finally {
            endReplies(loop, batch);
        }
    }

    /**
     * Opens a batch of replies on event loop {@code loop} (the replies of one read): record them with
     * {@link #recordBatchedReply}, then close it with {@link #endReplies}, in a {@code finally}, since an interval
     * cannot be taken while a batch is open.
     */
    public long beginReplies(int loop) {
        return replies[loop].enter();
    }

    public void endReplies(int loop, long batch) {
        replies[loop].exit(batch);
    }

    /** {@link #recordReply} inside a batch. */
    public void recordBatchedReply(int loop, long intendedNanos, long sentNanos, long nowNanos, boolean openLoop) {
        replies[loop].record(openLoop, openLoop ? clamp((nowNanos - intendedNanos) / 1000) : 0,
                clamp((nowNanos - sentNanos) / 1000));
    }

    public void recordConnectTime(long nanos) {
        connectTime.recordValue(clamp(nanos / 1000));
    }

    public void recordHandshakeTime(long nanos) {
        handshakesDone.increment();
        handshakeTime.recordValue(clamp(nanos / 1000));
    }

    /** Moves the handshakes recorded since the last call into {@code out}. */
    public void drainHandshakesInto(Histogram out) {
        out.add(handshakeTime.getIntervalHistogram());
    }

    private static long clamp(long micros) {
        return Math.max(LOWEST_US, Math.min(HIGHEST_US, micros));
    }

    /** Moves what was recorded since the last call into the given histograms. */
    public void drainInto(Histogram correctedOut, Histogram serviceOut, Histogram connectOut) {
        for (LoopLatencies loop : replies) {
            loop.drainInto(correctedOut, serviceOut);
        }
        connectOut.add(connectTime.getIntervalHistogram());
    }

    /**
     * Forgets what a warmup run on the same connections counted and recorded (an RPC load's), so measurement starts
     * from zero; connects and handshakes are kept, as a warmup's are everywhere.
     */
    public void resetAfterWarmup() {
        sent.reset();
        ok.reset();
        bad.reset();
        errors.reset();
        late.reset();
        unexpected.reset();
        okBytes.reset();
        unansweredEnds.reset();
        firstFailure.set(null);
        firstBad.set(null);
        Histogram discard = newHistogram();
        for (LoopLatencies loop : replies) {
            loop.drainInto(discard, discard);
        }
    }

    /** A consistent-enough read of the counters for one interval row. */
    public Counts counts() {
        return new Counts(sent.sum(), ok.sum(), bad.sum(), errors.sum(), late.sum(), unexpected.sum(), okBytes.sum(),
                connectsEstablished.sum(), connectFailures.sum());
    }

    /**
     * Counter values at one moment; {@link #minus} gives an interval's, {@link #plus} adds intervals up.
     * {@code unexpected} frames answered no request, so they are not among the {@link #completed} ones.
     */
    public record Counts(long sent, long ok, long bad, long errors, long late, long unexpected, long okBytes,
            long connects, long connectFailures) {
        public static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0);

        public Counts minus(Counts o) {
            return new Counts(sent - o.sent, ok - o.ok, bad - o.bad, errors - o.errors, late - o.late,
                    unexpected - o.unexpected, okBytes - o.okBytes, connects - o.connects,
                    connectFailures - o.connectFailures);
        }

        public Counts plus(Counts o) {
            return new Counts(sent + o.sent, ok + o.ok, bad + o.bad, errors + o.errors, late + o.late,
                    unexpected + o.unexpected, okBytes + o.okBytes, connects + o.connects,
                    connectFailures + o.connectFailures);
        }

        /** Requests that ended: verified, bad, or failed; frames that answered none are not among them. */
        public long completed() {
            return ok + bad + errors;
        }
    }
}
