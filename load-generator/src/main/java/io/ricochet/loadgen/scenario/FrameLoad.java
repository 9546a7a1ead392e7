package io.ricochet.loadgen.scenario;

import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.transport.FrameClient;
import io.ricochet.transport.IoTransport;
import io.ricochet.transport.Protocol;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * What the framed loads (echo and CRR) share: the framework's client for the spec (transport, TLS or Noise, loops), its
 * event loops in order, the run's statistics with one recorder per loop, the request bodies, and the first failure.
 */
public abstract class FrameLoad implements Load {
    final LoadSpec spec;
    final FrameClient frames;
    final IoTransport io;
    final List<EventLoop> loops;
    final RunStats stats;
    final Payload payload;
    final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    /** Since when connects have failed with none succeeding; 0 while the last one succeeded (or none was made). */
    private final AtomicLong connectsFailingSince = new AtomicLong();
    /** Connects failed since the last that succeeded; bounds a run whose connects fail faster than --timeout passes. */
    private final AtomicLong consecutiveConnectFailures = new AtomicLong();
    private volatile String lastConnectFailure;

    /** So many connects failing in a row, none succeeding between them, end the run: the servers are not there. */
    static final int CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP = 1_000;

    FrameLoad(LoadSpec spec) {
        this.spec = spec;
        this.frames = spec.newClient();
        List<EventLoop> loops = new ArrayList<>();
        for (EventExecutor executor : frames.eventLoops().group()) {
            loops.add((EventLoop) executor);
        }
        this.loops = List.copyOf(loops);
        this.io = frames.eventLoops().transport();
        this.stats = new RunStats(loops.size());
        this.payload = new Payload(spec.seed(), spec.minSize(), spec.maxSize());
    }

    public LoadSpec spec() {
        return spec;
    }

    public RunStats stats() {
        return stats;
    }

    public IoTransport io() {
        return io;
    }

    /** The first connect or I/O failure seen, for the report; null if none. */
    public Throwable firstFailure() {
        return firstFailure.get();
    }

    /** Keeps {@code why} as the first failure if there is none yet; it is only asked then, so a failing run builds one message. */
    final void failed(Supplier<String> why) {
        if (firstFailure.get() == null) {
            firstFailure.compareAndSet(null, new RunFailure(why.get()));
        }
    }

    /** Why a request failed when no reply came in time. */
    final String noReplyInTime() {
        return "no reply within --timeout " + Durations.format(spec.timeout());
    }

    /**
     * Why requests failed when the server closed their connection: with bodies over the protocol's default max frame,
     * most likely a frame it would not take, a protocol error it closes on (docs/protocol.md).
     */
    final String serverClosed(int unanswered) {
        String closed = "the server closed the connection with " + unanswered + " request(s) unanswered";
        int defaultMax = spec.lengthField().defaultMaxFrame();
        return spec.maxSize() <= defaultMax
                ? closed + " (a server closes on a frame it will not take: is --target an echo port, with --length-field "
                        + spec.lengthField().width() + "?)"
                : closed + "; bodies of up to " + spec.maxSize() + " bytes were sent, and a server with the default "
                        + "--max-frame for a " + spec.lengthField().width() + "-byte length field (" + defaultMax
                        + ") closes on a longer frame";
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

    /**
     * Gives up when going on cannot measure anything: no connection is open and connects have failed for
     * {@code --timeout}, or {@value #CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP} times in a row, with none succeeding
     * (they are retried meanwhile, so a server that starts late is waited for); or nothing was ever answered (not even
     * late), and as many handshakes failed as there are connections with none done, or as many connections ended owed
     * replies they never got (over UDP, where a datagram may just be lost, three per socket).
     */
    @Override
    public String futile() {
        // With connections open, the run measures them: one dead target of several does not end it.
        boolean noneOpen = stats.openConnections.get() == 0;
        long failingSince = connectsFailingSince.get();
        if (noneOpen && failingSince != 0 && System.nanoTime() - failingSince >= spec.timeout().toNanos()) {
            return "connects failed for --timeout " + Durations.format(spec.timeout()) + " with none succeeding";
        }
        if (noneOpen && consecutiveConnectFailures.get() >= CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP) {
            return CONSECUTIVE_CONNECT_FAILURES_TO_GIVE_UP + " connects in a row failed";
        }
        RunStats.Counts c = stats.counts();
        if (c.ok() + c.bad() + c.late() > 0) {
            return null;
        }
        if (stats.handshakesDone.sum() == 0 && stats.handshakeFailures.sum() >= spec.connections()) {
            return "every handshake failed";
        }
        long unansweredToGiveUp = (long) spec.connections() * (spec.protocol() == Protocol.UDP ? 3 : 1);
        return stats.unansweredEnds.sum() >= unansweredToGiveUp ? "no request was answered" : null;
    }

    /** A connection ended with {@code unanswered} requests owed: the server closed it. */
    final void serverClosedOn(int unanswered) {
        stats.unansweredEnds.increment();
        if (firstFailure.get() == null) {
            failed(() -> serverClosed(unanswered));
        }
    }

    /** A request got no reply within the timeout. */
    final void timedOut() {
        stats.unansweredEnds.increment();
        if (firstFailure.get() == null) {
            failed(this::noReplyInTime);
        }
    }

    /** How often its timers tick, for config.json: 0 without a send tick. */
    abstract long tickNanos();

    /** Whether {@code maxRequests} are all started (never true without a limit). */
    abstract boolean requestLimitReached();

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
        return spec.openLoop();
    }

    @Override
    public boolean timesConnects() {
        return true;
    }

    @Override
    public boolean timesHandshakes() {
        return spec.handshakes();
    }

    @Override
    public long handshakeFailures() {
        return stats.handshakeFailures.sum();
    }

    @Override
    public boolean finished() {
        return requestLimitReached() && stats.counts().completed() >= spec.maxRequests();
    }

    /** A request count is checked every millisecond: the last reply is timed closely, and sweeps' steps are short. */
    @Override
    public boolean awaitFinished(long nanos) throws InterruptedException {
        if (spec.maxRequests() == 0) {
            return Load.super.awaitFinished(nanos);
        }
        long deadline = System.nanoTime() + nanos;
        while (!finished() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        return finished();
    }

    @Override
    public void describe(Map<String, Object> config) {
        config.put("latency_kind", latencyKind());
        config.put("io", io.kind().label());
        config.put("send_tick_us", tickNanos() / 1000);
    }

    String latencyKind() {
        return spec.openLoop() ? "corrected" : "closed_loop";
    }

    @Override
    public ProgressLine progressLine(Schedule schedule) {
        return ProgressLine.timed(schedule.duration(), () -> lastConnectFailure);
    }
}
