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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A framed load on held connections (echo, rr, massive, ramp's and sweep's steps): it opens them, paced by the connect
 * rate and bound round-robin to the source addresses, keeps each loaded by its {@link FrameLane} until told to stop,
 * and replaces connections the server drops. All I/O runs on the generator's own event loops, one {@link LoopDriver}
 * each.
 */
public final class HeldConnections extends FrameLoad {
    private static final long CONNECT_PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** How long closing every connection at the end may take in all. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /** Socket buffers of a UDP lane: the kernel's default, as for a TCP connection. */
    private static final int DEFAULT_SOCKET_BUFFER = 0;

    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final AtomicLong nextId = new AtomicLong();
    private volatile boolean closing;
    private Future<?> connector;
    private long connectStartNanos;
    private int driverCursor;

    public HeldConnections(LoadSpec spec, FrameWorkload workload) {
        super(spec, workload);
    }

    /** Starts the drivers and the paced connect loop. */
    @Override
    public void start() {
        startDrivers();
        connectStartNanos = System.nanoTime();
        EventLoop first = drivers.get(0).loop();
        connector = first.scheduleAtFixedRate(this::connectDue, 0, CONNECT_PACE_NANOS, TimeUnit.NANOSECONDS);
    }

    private void connectDue() {
        long opened = nextId.get();
        long budget = spec.connections();
        if (spec.connectRate() > 0) {
            double elapsed = (System.nanoTime() - connectStartNanos) / 1e9;
            budget = Math.min(budget, 1 + (long) (elapsed * spec.connectRate()));
        }
        for (long i = opened; i < budget && !closing; i++) {
            connect(nextId.getAndIncrement(), 0);
        }
        if (nextId.get() >= spec.connections()) {
            connector.cancel(false);
        }
    }

    /** Opens connection {@code id}; {@code attempt} connects of it failed before, so a refused one is tried again. */
    private void connect(long id, int attempt) {
        LoopDriver driver = drivers.get(driverCursor++ % drivers.size());
        InetSocketAddress target = spec.target(id);
        InetSocketAddress local = spec.source(id);
        long begin = System.nanoTime();
        ChannelFuture future;
        if (spec.protocol() != Protocol.UDP) {
            // The framework's client and decoder (over TCP, or a QUIC stream); the lane writes whole frames itself, for
            // its per-request state.
            future = frames.connect(target, local, driver.loop(), new TcpLane(this, driver, id).handler(),
                    FrameClient.Delivery.RUNS);
        } else {
            future = frames.connectDatagram(target, local, driver.loop(), new DatagramLane(this, driver, id).handler(),
                    DEFAULT_SOCKET_BUFFER);
        }
        Channel ch = future.channel();
        // Over QUIC the future's channel is the loop's socket, which every connection shares and the client closes.
        if (spec.protocol() != Protocol.QUIC) {
            channels.add(ch);
            ch.closeFuture().addListener(f -> channels.remove(ch));
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
                            connect(id, attempt + 1);
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
        if (pace.sending() && !closing) {
            c.driver.loop().schedule(() -> {
                if (pace.sending() && !closing) {
                    connect(c.id, 0);
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
        List<ChannelFuture> closing = new ArrayList<>();
        for (Channel ch : List.copyOf(channels)) {
            closing.add(ch.close());
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
