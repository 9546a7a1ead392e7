package io.ricochet.loadgen.engine;

import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.stats.RunStats;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What every load on the engine shares: one {@link LoopDriver} per event loop, the run's statistics with one recorder
 * per loop, the pacing its lanes share, the first failure, when going on is futile, and a drain and an end of work
 * that wait on futures (a loop's in-flight count reaching zero), never on sleeps.
 */
abstract class LoadBase implements Load {
    /** So many connects failing in a row, none succeeding between them, end the run: the servers are not there. */
    static final int CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP = 1_000;

    final List<LoopDriver> drivers;
    final RunStats stats;
    final Pace pace;
    final Duration timeout;
    final int connections;
    /** Completes when a fixed amount of work has all ended. */
    final CompletableFuture<Void> done = new CompletableFuture<>();
    /** Since when connects have failed with none succeeding; 0 while the last one succeeded (or none was made). */
    private final AtomicLong connectsFailingSince = new AtomicLong();
    /** Connects failed since the last that succeeded; bounds a run whose connects fail faster than --timeout passes. */
    private final AtomicLong consecutiveConnectFailures = new AtomicLong();
    private volatile String lastConnectFailure;
    /** Wall-clock micros minus monotonic micros, taken once: a request's send time without a second clock read. */
    final long wallOffsetMicros = System.currentTimeMillis() * 1000 - System.nanoTime() / 1000;
    /** Conversations the workload failed to open: as many as there are connections, with nothing answered, end the run. */
    final java.util.concurrent.atomic.LongAdder openFailures = new java.util.concurrent.atomic.LongAdder();

    /**
     * @param loops       the event loops, one driver each
     * @param maxRequests requests in all (0: until stopped)
     * @param perLaneRate requests per second of each lane in open loop; 0 in closed loop or under {@code stages}
     * @param stages      a rate schedule that the {@code connections} lanes share, or null
     */
    LoadBase(EventExecutorGroup loops, int connections, Duration timeout, long maxRequests, double perLaneRate,
            Stages stages) {
        List<LoopDriver> list = new ArrayList<>();
        for (EventExecutor executor : loops) {
            list.add(new LoopDriver((EventLoop) executor, list.size()));
        }
        this.drivers = List.copyOf(list);
        this.stats = new RunStats(drivers.size());
        this.connections = connections;
        this.timeout = timeout;
        this.pace = new Pace(maxRequests, perLaneRate > 0 ? (long) (1e9 / perLaneRate) : 0, stages, connections,
                this::whenIdle);
    }

    /** Starts each driver's timeout sweep: a tenth of the timeout, between 10 ms and a second. */
    final void startDrivers() {
        pace.begin(System.nanoTime());
        long sweep = Math.max(10_000_000L, Math.min(1_000_000_000L, timeout.toNanos() / 10));
        for (LoopDriver d : drivers) {
            d.start(sweep);
        }
    }

    /** The driver of {@code loop}. */
    final LoopDriver driverOf(EventLoop loop) {
        for (LoopDriver d : drivers) {
            if (d.loop() == loop) {
                return d;
            }
        }
        throw new IllegalStateException("loop " + loop + " is not one of this load's");
    }

    /** Completes {@link #done} once every driver is idle; called when all the work allowed has been started. */
    private void whenIdle() {
        idle().whenComplete((v, e) -> done.complete(null));
    }

    /** A future that completes when nothing is in flight on any loop. */
    final CompletableFuture<Void> idle() {
        CompletableFuture<?>[] idle = new CompletableFuture<?>[drivers.size()];
        for (int i = 0; i < idle.length; i++) {
            LoopDriver d = drivers.get(i);
            CompletableFuture<Void> f = new CompletableFuture<>();
            d.loop().execute(() -> d.completeWhenIdle().whenComplete((v, e) -> f.complete(null)));
            idle[i] = f;
        }
        return CompletableFuture.allOf(idle);
    }

    /** Keeps {@code why} as the first failure if there is none yet; only asked then, so a failing run builds one. */
    final void failed(Supplier<String> why) {
        if (stats.firstFailure.get() == null) {
            stats.failed(new RunFailure(why.get()));
        }
    }

    /** Why a request failed when no reply came in time, with {@link #noReplyYet} when no reply has come at all. */
    final String noReplyInTime() {
        String why = "no reply within --timeout " + Durations.format(timeout);
        return stats.ok.sum() + stats.bad.sum() == 0 ? why + noReplyYet() : why;
    }

    /** What to add when no request of the run has had a reply yet: what most often causes that. Nothing by default. */
    String noReplyYet() {
        return "";
    }

    /** A connect succeeded: counted and timed from {@code beginNanos}. */
    final void connected(long beginNanos) {
        stats.connectsEstablished.increment();
        stats.recordConnectTime(System.nanoTime() - beginNanos);
        connectsFailingSince.set(0);
        consecutiveConnectFailures.set(0);
    }

    /** A connect to {@code target} failed: counted, kept as the first failure if it is, and shown on the progress line. */
    final void connectFailed(InetSocketAddress target, Throwable cause) {
        stats.connectFailures.increment();
        connectsFailingSince.compareAndSet(0, System.nanoTime());
        consecutiveConnectFailures.incrementAndGet();
        String why = cannotConnect(target, cause);
        lastConnectFailure = why;
        failed(() -> why);
    }

    /** Waits before a connect is tried again: 10 ms, doubling to a second. */
    static long retryDelayMillis(int attempt) {
        return Math.min(1_000, 10L << Math.min(attempt, 7));
    }

    /** Why a connect failed, without the transport's wording around it. */
    static String cannotConnect(InetSocketAddress target, Throwable cause) {
        String reason = cause instanceof ConnectTimeoutException ? "connect timed out"
                : cause instanceof ConnectException && String.valueOf(cause.getMessage()).contains("refused")
                        ? "connection refused" : String.valueOf(cause);
        return "cannot connect to " + target.getHostString() + ":" + target.getPort() + ": " + reason;
    }

    /** How many connections must end owed replies they never got before a run with nothing answered gives up. */
    long unansweredToGiveUp() {
        return connections;
    }

    /**
     * Gives up when going on cannot measure anything: no connection is open and connects have failed for
     * {@code --timeout}, or {@value #CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP} times in a row, with none succeeding
     * (they are retried meanwhile, so a server that starts late is waited for); or nothing was ever answered (not even
     * late), and as many handshakes failed as there are connections with none done, or as many connections ended owed
     * replies they never got.
     */
    @Override
    public String futile() {
        // With connections open, the run measures them: one dead target of several does not end it.
        boolean noneOpen = stats.openConnections.get() == 0;
        long failingSince = connectsFailingSince.get();
        if (noneOpen && failingSince != 0 && System.nanoTime() - failingSince >= timeout.toNanos()) {
            return "connects failed for --timeout " + Durations.format(timeout) + " with none succeeding";
        }
        if (noneOpen && consecutiveConnectFailures.get() >= CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP) {
            return CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP + " connects in a row failed";
        }
        RunStats.Counts c = stats.counts();
        if (c.ok() + c.bad() + c.late() > 0) {
            return null;
        }
        if (openFailures.sum() >= connections) {
            return "the workload failed to open a connection's conversation, " + openFailures.sum() + " times";
        }
        if (stats.handshakesDone.sum() == 0 && stats.handshakeFailures.sum() >= connections) {
            return "every handshake failed";
        }
        return stats.unansweredEnds.sum() >= unansweredToGiveUp() ? "no request was answered" : null;
    }

    /** A request got no reply within the timeout. */
    final void timedOut() {
        stats.unansweredEnds.increment();
        failed(this::noReplyInTime);
    }

    /** The workload threw {@code e} in {@code what} ("request", "check") of the request {@code where} names. */
    final void workloadThrew(Throwable e, String what, Object where) {
        stats.errors.increment();
        // Only the first is kept: the message is built for it alone, not for every failure of a workload that always throws.
        failed(() -> "the workload threw " + e.getClass().getName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage()) + " (in its " + what + " of " + where + ")");
    }

    final String lastConnectFailure() {
        return lastConnectFailure;
    }

    @Override
    public RunStats.Counts counts() {
        return stats.counts();
    }

    @Override
    public int openConnections() {
        return stats.openConnections.get();
    }

    @Override
    public void drainLatencies(Latencies into) {
        stats.drainInto(into.corrected(), into.service(), into.connect());
        stats.drainHandshakesInto(into.handshake());
    }

    @Override
    public boolean openLoop() {
        return pace.openLoop();
    }

    @Override
    public long handshakeFailures() {
        return stats.handshakeFailures.sum();
    }

    @Override
    public boolean finished() {
        return done.isDone();
    }

    @Override
    public boolean awaitFinished(long nanos) throws InterruptedException {
        try {
            done.get(nanos, TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    @Override
    public void stopSending() {
        pace.stopSending();
    }

    /** Waits up to {@code timeout} for every loop to have nothing in flight, then fails what is left. */
    @Override
    public void drain(Duration timeout) throws InterruptedException {
        try {
            idle().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // What is left is failed below.
        }
        finishDrivers();
    }

    /** Fails what is still in flight on every loop, and stops their clocks. */
    final void finishDrivers() {
        for (LoopDriver d : drivers) {
            if (!d.loop().isShuttingDown()) {
                d.loop().submit(d::finish).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    /** Open loop: a request leaves within one send tick of its intended time. Closed loop: no send tick. */
    long tickNanos() {
        return openLoop() ? LoopDriver.SEND_TICK_NANOS : 0;
    }

    String latencyKind() {
        return openLoop() ? "corrected" : "closed_loop";
    }

    /** The first failure's message, or null. */
    final String firstError() {
        Throwable failure = stats.firstFailure.get();
        return failure == null ? null : failure.toString();
    }

    /** Seconds from the first send to the last reply when a request count bounds the run; else 0. */
    final double requestSpanS() {
        long first = stats.firstSendNanos.get();
        long last = stats.lastReplyNanos.get();
        return first > 0 && last > first ? (last - first) / 1e9 : 0;
    }

    @Override
    public Progress progress() {
        return new Progress.Timed(this::lastConnectFailure);
    }
}
