package io.ricochet.loadgen.scenario;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.transport.FrameClient;
import io.ricochet.transport.IoTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

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
        return ProgressLine.timed(schedule.duration());
    }
}
