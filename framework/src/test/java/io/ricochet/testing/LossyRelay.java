package io.ricochet.testing;

import static org.awaitility.Awaitility.await;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-process UDP relay between one client and one server that impairs the path as a bad network does: it drops,
 * duplicates and delays datagrams, each by a seeded draw, and a random delay reorders them. Clients send to
 * {@link #address()}; the relay forwards to the server from a socket of its own and sends the server's datagrams back
 * to the last client address seen. It counts, each way, what it took in, dropped and delivered, so a test can hold a
 * transport's own counts against them exactly. Both sockets live on one event loop, so the draws happen in order.
 */
public final class LossyRelay implements AutoCloseable {
    /** What a direction of the relay did. */
    public static final class Counts {
        private final AtomicLong received = new AtomicLong();
        private final AtomicLong dropped = new AtomicLong();
        private final AtomicLong delivered = new AtomicLong();

        public long received() {
            return received.get();
        }

        public long dropped() {
            return dropped.get();
        }

        /** Datagrams sent on, duplicates included. */
        public long delivered() {
            return delivered.get();
        }

        @Override
        public String toString() {
            return "received " + received + ", dropped " + dropped + ", delivered " + delivered;
        }
    }

    /**
     * @param drop      the chance a datagram is dropped
     * @param duplicate the chance a datagram that is not dropped is sent twice
     * @param maxDelay  each copy waits a uniform 0..maxDelay before it goes on, which reorders datagrams closer than that
     */
    public record Impairment(double drop, double duplicate, Duration maxDelay) {
        public static final Impairment NONE = new Impairment(0, 0, Duration.ZERO);
    }

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Random random;
    private final Impairment impairment;
    private final InetSocketAddress server;
    private final Channel front;
    private final Channel back;
    private final Counts toServer = new Counts();
    private final Counts toClient = new Counts();
    private final AtomicInteger delayed = new AtomicInteger();
    private volatile InetSocketAddress client;

    public LossyRelay(InetSocketAddress server, Impairment impairment, long seed) throws InterruptedException {
        this.server = server;
        this.impairment = impairment;
        this.random = new Random(seed);
        this.front = bind(true);
        this.back = bind(false);
    }

    private Channel bind(boolean fromClient) throws InterruptedException {
        // Buffers large enough that the relay itself drops nothing at test rates: every loss is a drawn one.
        return new Bootstrap().group(group).channel(NioDatagramChannel.class)
                .option(ChannelOption.SO_RCVBUF, 4 * 1024 * 1024).option(ChannelOption.SO_SNDBUF, 4 * 1024 * 1024)
                // The relay is the test's network, not code under test: PARANOID tracking would make it the bottleneck.
                .option(ChannelOption.ALLOCATOR, new UnpooledByteBufAllocator(false, true))
                .handler(new SimpleChannelInboundHandler<DatagramPacket>(false) {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        if (fromClient) {
                            client = packet.sender();
                            forward(packet.content(), back, server, toServer);
                        } else {
                            forward(packet.content(), front, client, toClient);
                        }
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    private void forward(ByteBuf content, Channel out, InetSocketAddress to, Counts counts) {
        counts.received.incrementAndGet();
        if (to == null || random.nextDouble() < impairment.drop()) {
            counts.dropped.incrementAndGet();
            content.release();
            return;
        }
        int copies = random.nextDouble() < impairment.duplicate() ? 2 : 1;
        for (int i = 0; i < copies; i++) {
            ByteBuf copy = i == copies - 1 ? content : content.retainedDuplicate();
            long delayNanos = (long) (random.nextDouble() * impairment.maxDelay().toNanos());
            counts.delivered.incrementAndGet();
            if (delayNanos == 0) {
                out.writeAndFlush(new DatagramPacket(copy, to));
            } else {
                delayed.incrementAndGet();
                out.eventLoop().schedule(() -> {
                    out.writeAndFlush(new DatagramPacket(copy, to));
                    delayed.decrementAndGet();
                }, delayNanos, TimeUnit.NANOSECONDS);
            }
        }
    }

    /** Whether no delayed copy is waiting to go on. */
    public boolean idle() {
        return delayed.get() == 0;
    }

    /** Where clients send. */
    public InetSocketAddress address() {
        return (InetSocketAddress) front.localAddress();
    }

    public Counts toServer() {
        return toServer;
    }

    public Counts toClient() {
        return toClient;
    }

    @Override
    public String toString() {
        return "relay to server: " + toServer + "; to client: " + toClient;
    }

    /** Closes once every delayed copy has gone on, so none is left holding its buffer. */
    @Override
    public void close() {
        await().atMost(Duration.ofSeconds(10)).until(() -> delayed.get() == 0);
        front.close().syncUninterruptibly();
        back.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
