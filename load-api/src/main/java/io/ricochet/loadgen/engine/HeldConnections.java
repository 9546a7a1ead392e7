package io.ricochet.loadgen.engine;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.client.FrameClient;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A framed load on held connections (echo, rr, massive, ramp's and sweep's steps): it opens them, paced by the connect
 * rate and bound round-robin to the source addresses, keeps each loaded by its {@link FrameLane} until told to stop,
 * and replaces connections the server drops. Under a connection schedule ({@link Stages.Kind#CONNECTIONS}) it opens
 * connections as the target rises and retires the newest as it falls: a retired connection drains what it is owed,
 * closes, and is not replaced. All I/O runs on the generator's own event loops, one {@link LoopDriver} each.
 */
public final class HeldConnections extends FrameLoad {
    private static final long CONNECT_PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** How long closing every connection at the end may take in all. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /** Socket buffers of a UDP lane: the kernel's default, as for a TCP connection. */
    private static final int DEFAULT_SOCKET_BUFFER = 0;

    private final AtomicLong nextId = new AtomicLong();
    /**
     * The lane of each connection number while it is wanted; null once retired. A closed connection is replaced only
     * while it is still its number's lane, so a retired one, or a stale retry of one, never comes back.
     */
    private final AtomicReferenceArray<FrameLane> lanes;
    /** Connections the schedule holds: numbers 0 to {@code held - 1}. Confined to the connect loop. */
    private int held;
    private volatile boolean closing;
    private Future<?> connector;
    private long connectStartNanos;
    private int driverCursor;

    public HeldConnections(LoadSpec spec, FrameWorkload workload) {
        super(spec, workload);
        this.lanes = new AtomicReferenceArray<>(spec.connections());
    }

    /** Starts the drivers and the paced connect loop. */
    @Override
    public void start() {
        startDrivers();
        // One origin for a connection schedule, a rate schedule and the intervals that measure them.
        connectStartNanos = pace.originNanos();
        EventLoop first = drivers.get(0).loop();
        connector = first.scheduleAtFixedRate(this::connectDue, 0, CONNECT_PACE_NANOS, TimeUnit.NANOSECONDS);
    }

    private void connectDue() {
        if (spec.connectionStages()) {
            followStages();
            return;
        }
        long opened = nextId.get();
        long budget = spec.connections();
        if (spec.connectRate() > 0) {
            double elapsed = (System.nanoTime() - connectStartNanos) / 1e9;
            budget = Math.min(budget, 1 + (long) (elapsed * spec.connectRate()));
        }
        for (long i = opened; i < budget && !closing; i++) {
            connect(nextId.getAndIncrement(), 0, null);
        }
        if (nextId.get() >= spec.connections()) {
            connector.cancel(false);
        }
    }

    /**
     * Opens connections up to the schedule's target now, or retires the newest down to it. Called every 10 ms, so a
     * ramp opens or retires a few at a time, never all at once unless a step says so.
     */
    private void followStages() {
        if (!pace.sending()) {
            // Draining: the connections measured so far finish as they are.
            return;
        }
        double target = spec.stages().targetAt(System.nanoTime() - connectStartNanos);
        int want = (int) Math.min(spec.connections(), Math.floor(target + 1e-9));
        while (held < want && !closing) {
            connect(held++, 0, null);
        }
        while (held > want) {
            FrameLane lane = lanes.getAndSet(--held, null);
            if (lane != null) {
                lane.driver.loop().execute(lane::retire);
            }
        }
    }

    /**
     * Opens connection {@code id} in place of {@code replacing} (null for a new one); {@code attempt} connects of it
     * failed before, so a refused one is tried again. Nothing is opened if {@code replacing} is no longer the number's
     * lane: a connection schedule retired it meanwhile, from the connect loop.
     */
    private void connect(long id, int attempt, FrameLane replacing) {
        LoopDriver driver = drivers.get(driverCursor++ % drivers.size());
        InetSocketAddress target = spec.target(id);
        InetSocketAddress local = spec.source(id);
        long begin = System.nanoTime();
        ChannelFuture future;
        FrameLane lane = spec.protocol() != Protocol.UDP ? new TcpLane(this, driver, id)
                : new DatagramLane(this, driver, id);
        if (!lanes.compareAndSet((int) id, replacing, lane)) {
            return;
        }
        if (replacing != null) {
            lane.replaces(replacing);
        }
        if (spec.protocol() != Protocol.UDP) {
            // The framework's client and decoder (over TCP, or a QUIC stream); the lane writes whole frames itself, for
            // its per-request state.
            future = frames.connect(target, local, driver.loop(), lane.handler(), FrameClient.Delivery.RUNS);
        } else {
            future = frames.connectDatagram(target, local, driver.loop(), lane.handler(), DEFAULT_SOCKET_BUFFER);
        }
        Channel ch = future.channel();
        // Over QUIC the future's channel is the loop's socket, which every connection shares and the client closes.
        if (spec.protocol() != Protocol.QUIC) {
            lane.attach(ch);
        }
        future.addListener(f -> {
            if (f.isSuccess()) {
                connected(begin);
                Handshakes.time(ch, stats);
            } else {
                connectFailed(target, f.cause());
                // Refused or timed out during the ramp (a server that starts late, a full backlog): try again, backing
                // off, until it works or the run gives up (futile) or stops.
                if (pace.sending() && !closing) {
                    driver.loop().schedule(() -> {
                        if (pace.sending() && !closing) {
                            connect(id, attempt + 1, lane);
                        }
                    }, retryDelayMillis(attempt), TimeUnit.MILLISECONDS);
                }
            }
        });
    }

    void connectionClosed(FrameLane c) {
        // Replace connections dropped mid-run (a request timeout, the server's idle timeout), during the ramp too: it
        // reopens the same connection (its target and source), so the ramp's count of connects stays right. The short
        // delay keeps a server that closes every connection at once from turning this into a busy loop.
        if (pace.sending() && !closing && lanes.get((int) c.id) == c) {
            c.driver.loop().schedule(() -> {
                if (pace.sending() && !closing) {
                    connect(c.id, 0, c);
                }
            }, 10, TimeUnit.MILLISECONDS);
        }
    }

    /** Over UDP a datagram may just be lost: three unanswered per socket before nothing-answered gives up. */
    @Override
    long unansweredToGiveUp() {
        return (long) spec.connections() * (spec.protocol() == Protocol.UDP ? 3 : 1);
    }

    /** Send ticks the loops have run: as many as sends are due, not one every 100 µs. */
    long sendTicks() {
        long n = 0;
        for (LoopDriver d : drivers) {
            n += d.loop().submit(d::ticks).syncUninterruptibly().getNow();
        }
        return n;
    }

    @Override
    public void close() {
        closing = true;
        stopSending();
        if (connector != null) {
            connector.cancel(false);
        }
        finishDrivers();
        // Every close is asked for before any is awaited: one at a time, tens of thousands of held connections took
        // longer than the controller waits for a worker's last word.
        // The lanes still wanted; the client's own close below also ends those a schedule retired, still draining.
        List<ChannelFuture> closing = new ArrayList<>();
        for (int i = 0; i < lanes.length(); i++) {
            FrameLane lane = lanes.get(i);
            Channel ch = lane == null ? null : lane.channel();
            if (ch != null && ch.isOpen()) {
                closing.add(ch.close());
            }
        }
        long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
        for (ChannelFuture f : closing) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            f.awaitUninterruptibly(left, TimeUnit.NANOSECONDS);
        }
        frames.close();
    }
}
