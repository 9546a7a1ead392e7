package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.stats.RunStats;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The one loop that measures every kind of {@link Load}: it waits for the controller's start signal, runs the
 * uncounted warmup, then every interval takes the load's counts and latencies and hands the interval to the
 * {@link RunListener}; when the duration is over, the load has finished its work, going on is futile, or the controller
 * says stop, it stops sending and drains what is owed (a futile run fails it at once). The {@link Measurement}'s totals are exactly the sum of the
 * intervals handed over.
 */
public final class LoadDriver {
    /** How often a stop from the controller is looked for. */
    private static final long STOP_POLL_NANOS = 50_000_000;

    private final Schedule schedule;
    private final RunHooks hooks;
    private final PrintStream progress;

    /** @param progress where the warmup's and an early stop's lines go, or null for none */
    public LoadDriver(Schedule schedule, RunHooks hooks, PrintStream progress) {
        this.schedule = schedule;
        this.hooks = hooks;
        this.progress = progress;
    }

    /** Measures {@code load}, which the caller prepared and closes, handing each interval to {@code listener}. */
    public Measurement run(Load load, RunListener listener) throws InterruptedException {
        if (!hooks.awaitStart()) {
            throw new IllegalStateException("the controller called the run off before it started");
        }
        boolean warmup = !schedule.warmup().isZero();
        // Without warmup the server's baseline precedes the first request, so ok and frames.sent match exactly.
        if (!warmup) {
            listener.measuring();
        }
        load.start();
        // Latency from warmup is dropped; connect and handshake times are kept (a held-connection ramp is warmup).
        Latencies fromWarmup = Latencies.empty();
        RunStats.Counts base = RunStats.Counts.ZERO;
        if (warmup) {
            warmUp(load);
            // Server first, client right after: the two baselines differ only by what completes in between.
            listener.measuring();
            load.drainLatencies(fromWarmup);
            base = load.counts();
        }
        long measuredFrom = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        // Stages are timed from the load's start: the intervals too, so that each covers the stretch of them it shows.
        long start = !warmup && load.stagesOriginNanos() != 0 ? load.stagesOriginNanos() : measuredFrom;
        startMillis -= (measuredFrom - start) / 1_000_000;
        long end = schedule.duration() == null ? Long.MAX_VALUE : start + schedule.duration().toNanos();
        long intervalNanos = schedule.interval().toNanos();
        long next = start;
        RunStats.Counts previous = base;
        double previousElapsed = 0;
        double sendingSeconds = 0;
        long previousHandshakeFailures = 0;
        Latencies interval = Latencies.empty();
        Latencies total = Latencies.empty();
        long index = 0;
        boolean done = false;
        while (!done) {
            next += intervalNanos;
            done = awaitInterval(load, Math.min(next, end), end);
            if (done) {
                String futile = load.futile();
                if (futile != null && progress != null) {
                    progress.println("stopping early: " + futile + " (the summary's first error says why)");
                }
                load.stopSending();
                sendingSeconds = (System.nanoTime() - start) / 1e9;
                // A futile run has nothing to wait for: what is in flight would only end at its deadline (an RPC
                // lane has already sent its next call after the first one's), so it is failed at once.
                load.drain(futile != null ? Duration.ZERO : schedule.drain());
            }
            interval.reset();
            load.drainLatencies(interval);
            if (index == 0) {
                interval.connect().add(fromWarmup.connect());
                interval.handshake().add(fromWarmup.handshake());
            }
            total.add(interval);
            long handshakeFailures = load.handshakeFailures();
            RunStats.Counts now = load.counts();
            // The last interval is cut at the end or stretched by the drain: use its real length.
            double elapsed = (System.nanoTime() - start) / 1e9;
            // The reported latency: corrected in open loop, from the actual send in closed loop.
            Histogram latency = load.openLoop() ? interval.corrected() : interval.service();
            listener.interval(new Interval(index++, elapsed, startMillis + (long) (previousElapsed * 1000),
                    startMillis + (long) (elapsed * 1000), load.openConnections(), now.minus(previous), latency,
                    load.openLoop() ? interval.service() : null, load.timesConnects() ? interval.connect() : null,
                    load.timesHandshakes() ? interval.handshake() : null,
                    handshakeFailures - previousHandshakeFailures), elapsed - previousElapsed);
            previous = now;
            previousHandshakeFailures = handshakeFailures;
            previousElapsed = elapsed;
        }
        // The totals of the last interval's end, so the intervals add up to the summary exactly.
        return new Measurement(previous.minus(base), previousElapsed, sendingSeconds, total, previousHandshakeFailures,
                load.facts());
    }

    private void warmUp(Load load) throws InterruptedException {
        long warmupNanos = schedule.warmup().toNanos();
        long warmupEnd = System.nanoTime() + warmupNanos;
        while (System.nanoTime() < warmupEnd && !hooks.stopRequested()) {
            // The interval's clock, not a drain: the warmup prints its progress once an interval.
            Thread.sleep(Math.min(schedule.interval().toMillis(),
                    Math.max(1, (warmupEnd - System.nanoTime()) / 1_000_000)));
            if (progress != null) {
                progress.printf(Locale.ROOT, "[warmup %5.1fs] connections %d%n",
                        (warmupNanos - (warmupEnd - System.nanoTime())) / 1e9, load.openConnections());
            }
        }
    }

    /** Waits until {@code wake}; true when the run is over: its end has come, its work is done, or a stop was asked. */
    private boolean awaitInterval(Load load, long wake, long end) throws InterruptedException {
        long left;
        while ((left = wake - System.nanoTime()) > 0 && !hooks.stopRequested()) {
            if (load.awaitFinished(Math.min(left, STOP_POLL_NANOS)) || load.futile() != null) {
                return true;
            }
        }
        return System.nanoTime() >= end || load.finished() || load.futile() != null || hooks.stopRequested();
    }
}
