package io.ricochet.loadgen.scenario;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.util.concurrent.Future;
import io.ricochet.transport.FrameClient;
import io.ricochet.transport.Protocol;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one {@link LoadSpec}: opens its connections (paced by the connect rate, bound round-robin to
 * the source addresses), keeps them loaded until told to stop, and replaces connections the server
 * drops. All I/O runs on the generator's own event loops, one {@link LoopDriver} each.
 */
public final class EchoLoad extends FrameLoad {
    private static final long CONNECT_PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** How long closing every connection at the end may take in all. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final List<LoopDriver> drivers = new ArrayList<>();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final AtomicLong nextId = new AtomicLong();
    private final AtomicLong started = new AtomicLong();
    private volatile boolean sending = true;
    private volatile boolean closing;
    private Future<?> connector;
    private long connectStartNanos;
    private int driverCursor;

    public EchoLoad(LoadSpec spec) {
        super(spec);
        for (int i = 0; i < loops.size(); i++) {
            drivers.add(new LoopDriver(loops.get(i), i));
        }
    }

    Payload payload() {
        return payload;
    }

    boolean sending() {
        return sending;
    }

    /** False once {@code maxRequests} have been started. */
    boolean mayStartRequest() {
        if (spec.maxRequests() == 0) {
            return true;
        }
        if (started.get() >= spec.maxRequests()) {
            return false;
        }
        return started.incrementAndGet() <= spec.maxRequests();
    }

    /** Starts the drivers and the paced connect loop. */
    @Override
    public void start() {
        long timeoutSweep = Math.max(10_000_000L, Math.min(1_000_000_000L, spec.timeout().toNanos() / 10));
        for (LoopDriver d : drivers) {
            d.start(spec.openLoop(), timeoutSweep);
        }
        connectStartNanos = System.nanoTime();
        EventLoop first = drivers.get(0).loop();
        connector = first.scheduleAtFixedRate(this::connectDue, 0, CONNECT_PACE_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Open loop: a request leaves within one send tick of its intended time. Closed loop: no send tick. */
    @Override
    long tickNanos() {
        return spec.openLoop() ? LoopDriver.SEND_TICK_NANOS : 0;
    }

    private void connectDue() {
        long opened = nextId.get();
        long budget = spec.connections();
        if (spec.connectRate() > 0) {
            double elapsed = (System.nanoTime() - connectStartNanos) / 1e9;
            budget = Math.min(budget, 1 + (long) (elapsed * spec.connectRate()));
        }
        for (long i = opened; i < budget && !closing; i++) {
            connect(nextId.getAndIncrement());
        }
        if (nextId.get() >= spec.connections()) {
            connector.cancel(false);
        }
    }

    private void connect(long id) {
        connect(id, 0);
    }

    /** Opens connection {@code id}; {@code attempt} connects of it failed before, so a refused one is tried again. */
    private void connect(long id, int attempt) {
        LoopDriver driver = drivers.get(driverCursor++ % drivers.size());
        InetSocketAddress target = spec.target(id);
        InetSocketAddress local = spec.source(id);
        long begin = System.nanoTime();
        ChannelFuture future;
        if (spec.protocol() != Protocol.UDP) {
            // The framework's client and decoder (over TCP, or a QUIC stream); the generator writes whole frames
            // itself, for its per-request state.
            future = frames.connect(target, local, driver.loop(), new TcpLoadHandler(this, driver, id),
                    FrameClient.Delivery.RUNS);
        } else {
            Bootstrap bootstrap = new Bootstrap().group(driver.loop()).channel(io.datagramChannel())
                    .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(65_536))
                    .handler(new UdpLoadHandler(this, driver, id));
            future = local == null ? bootstrap.connect(target) : bootstrap.connect(target, local);
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
                Handshakes.time(ch, stats, firstFailure);
            } else {
                connectFailed(target, f.cause());
                // Refused or timed out during the ramp (a server that starts late, a full backlog): try again, backing
                // off, until it works or the run gives up (futile) or stops.
                if (sending && !closing) {
                    driver.loop().schedule(() -> {
                        if (sending && !closing) {
                            connect(id, attempt + 1);
                        }
                    }, retryDelayMillis(attempt), TimeUnit.MILLISECONDS);
                }
            }
        });
    }

    void connectionClosed(LoadConnection c) {
        // Replace connections dropped mid-run (a request timeout, the server's idle timeout), during the ramp too: it
        // reopens the same connection (its target and source), so the ramp's count of connects stays right. The short
        // delay keeps a server that closes every connection at once from turning this into a busy loop.
        if (sending && !closing) {
            c.driver.loop().schedule(() -> {
                if (sending && !closing) {
                    connect(c.id);
                }
            }, 10, TimeUnit.MILLISECONDS);
        }
    }

    void connectionFailed(Throwable cause) {
        firstFailure.compareAndSet(null, cause);
    }

    @Override
    boolean requestLimitReached() {
        return spec.maxRequests() > 0 && started.get() >= spec.maxRequests();
    }

    /** Stops starting requests. */
    @Override
    public void stopSending() {
        sending = false;
    }

    /** Send ticks the loops have run: as many as sends are due, not one every 100 µs. */
    long sendTicks() {
        long n = 0;
        for (LoopDriver d : drivers) {
            n += d.loop().submit(d::ticks).syncUninterruptibly().getNow();
        }
        return n;
    }

    /** Requests sent and not yet answered, failed or timed out. */
    public int inFlight() {
        int n = 0;
        for (LoopDriver d : drivers) {
            n += d.loop().submit(d::inFlight).syncUninterruptibly().getNow();
        }
        return n;
    }

    /** Waits up to {@code timeout} for outstanding replies, then fails what is left. */
    @Override
    public void drain(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (inFlight() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        for (LoopDriver d : drivers) {
            d.loop().submit(d::finish).syncUninterruptibly();
        }
    }

    @Override
    public void close() {
        closing = true;
        sending = false;
        if (connector != null) {
            connector.cancel(false);
        }
        for (LoopDriver d : drivers) {
            d.loop().submit(d::finish).awaitUninterruptibly();
        }
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
