package io.ricochet.transport;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.EventExecutor;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.handler.AcceptErrorHandler;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.MeterNames;
import io.ricochet.metrics.TransportMeters;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running server: TCP and/or UDP listeners on one group of event loops, each frame handed to a
 * {@link FrameHandler}. {@link #start} binds; {@link #close} shuts down gracefully.
 *
 * <pre>{@code
 * try (RicochetServer server = RicochetServer.start(config, new ReverseEchoHandler(), registry)) {
 *     System.out.println("tcp on " + server.tcpAddress());
 *     server.terminationFuture().join();
 * }
 * }</pre>
 */
public final class RicochetServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RicochetServer.class);
    private static final int UDP_SOCKET_BUFFER = 4 * 1024 * 1024;
    /** Reads per read event before yielding: Netty's default for socket channels. */
    private static final int MAX_MESSAGES_PER_READ = 16;
    /**
     * One allocator for every connection: Netty's default gives each channel its own (32 B of heap apiece).
     * Netty sets a channel's own allocator to the channel's default of 16 reads per event; a shared one
     * must be told, or it stays at 1.
     */
    private static final AdaptiveRecvByteBufAllocator SHARED_READ_ALLOCATOR =
            (AdaptiveRecvByteBufAllocator) new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(MAX_MESSAGES_PER_READ);

    private final ServerConfig config;
    private final IoTransport transport;
    private final EventLoopGroup group;
    private final ConnectionRegistry connections;
    private final AtomicInteger udpSessions = new AtomicInteger();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private Channel tcpChannel;
    private Channel udpChannel;

    private RicochetServer(ServerConfig config, IoTransport transport, ConnectionBudget budget) {
        this.config = config;
        this.transport = transport;
        this.group = transport.newEventLoopGroup(config.resolvedIoThreads(), "ricochet-io");
        this.connections = new ConnectionRegistry(config.maxConnections(), budget);
    }

    /**
     * Binds the listeners {@code config} enables and serves {@code handler}, registering Ricochet's
     * meters on {@code registry}. Fails with {@link ServerStartException} if a port cannot be bound
     * or a forced transport cannot load.
     */
    public static RicochetServer start(ServerConfig config, FrameHandler handler, MeterRegistry registry) {
        return start(config, handler, registry, Protocol.TCP.tag());
    }

    /**
     * As {@link #start(ServerConfig, FrameHandler, MeterRegistry)}, with the TCP listener's meters tagged
     * {@code transport=tcpMeterTag}, so a second server on the same registry (the RPC port) counts apart.
     */
    public static RicochetServer start(ServerConfig config, FrameHandler handler, MeterRegistry registry,
            String tcpMeterTag) {
        return start(config, handler, registry, tcpMeterTag, null);
    }

    /**
     * As {@link #start(ServerConfig, FrameHandler, MeterRegistry, String)}, with every TCP connection also
     * taking a place in {@code budget}, which other listeners of the process share (null for none): so
     * that together they stay below the open-file limit.
     */
    public static RicochetServer start(ServerConfig config, FrameHandler handler, MeterRegistry registry,
            String tcpMeterTag, ConnectionBudget budget) {
        IoTransport transport;
        try {
            transport = IoTransport.resolve(config.transport());
        } catch (IllegalStateException e) {
            throw new ServerStartException(e.getMessage(), e);
        }
        RicochetServer server = new RicochetServer(config, transport, budget);
        try {
            server.bind(handler, registry, tcpMeterTag);
        } catch (RuntimeException e) {
            server.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw e;
        }
        return server;
    }

    private void bind(FrameHandler handler, MeterRegistry registry, String tcpMeterTag) {
        // A second server on the same registry (the RPC port) shares the gauge.
        if (registry.find(MeterNames.SERVER_INFO).tag(MeterNames.TAG_IO, transport.kind().label()).gauge() == null) {
            Gauge.builder(MeterNames.SERVER_INFO, () -> 1)
                    .description("Constant 1; the io tag names the I/O transport in use")
                    .tag(MeterNames.TAG_IO, transport.kind().label())
                    .register(registry);
        }
        if (config.tcpEnabled()) {
            TransportMeters tcpMeters = TransportMeters.register(registry, tcpMeterTag, connections::active);
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverSocketChannel())
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .handler(new AcceptErrorHandler(tcpMeterTag + " " + config.host() + ":" + config.tcpPort(), tcpMeters))
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childOption(ChannelOption.RECVBUF_ALLOCATOR, SHARED_READ_ALLOCATOR)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                            new WriteBufferWaterMark(config.writeBufferLowWatermark(), config.writeBufferHighWatermark()))
                    .childHandler(new TcpChannelInitializer(config, handler, tcpMeters, connections));
            tcpChannel = bindOrFail(bootstrap.bind(config.host(), config.tcpPort()).awaitUninterruptibly(), "tcp",
                    config.tcpPort());
            log.info("tcp bound to {} ({})", tcpAddress().getHostString() + ":" + tcpAddress().getPort(), transport.kind().label());
        }
        if (config.udpEnabled()) {
            TransportMeters udpMeters = TransportMeters.register(registry, Protocol.UDP.tag(), udpSessions::get);
            int width = config.lengthField().width();
            Bootstrap bootstrap = new Bootstrap()
                    .group(group)
                    .channel(transport.datagramChannel())
                    .option(ChannelOption.SO_RCVBUF, UDP_SOCKET_BUFFER)
                    .option(ChannelOption.SO_SNDBUF, UDP_SOCKET_BUFFER)
                    // One byte more than the largest valid datagram, so an oversized one is seen as oversized.
                    .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(width + config.maxUdpBody() + 1))
                    .handler(new UdpSessionHandler(handler, new ConnectionStats(udpMeters), width, config.maxUdpBody(),
                            config.maxUdpSessions(), config.idleTimeout(), udpSessions));
            udpChannel = bindOrFail(bootstrap.bind(config.host(), config.udpPort()).awaitUninterruptibly(), "udp",
                    config.udpPort());
            log.info("udp bound to {} ({})", udpAddress().getHostString() + ":" + udpAddress().getPort(), transport.kind().label());
        }
    }

    private Channel bindOrFail(ChannelFuture future, String what, int port) {
        if (!future.isSuccess()) {
            if (tcpChannel != null) {
                tcpChannel.close().syncUninterruptibly();
            }
            throw new ServerStartException("cannot bind " + what + " " + config.host() + ":" + port + ": "
                    + future.cause().getMessage(), future.cause());
        }
        return future.channel();
    }

    public ServerConfig config() {
        return config;
    }

    /** The transport actually running, AUTO resolved. */
    public TransportKind transport() {
        return transport.kind();
    }

    /** The bound TCP address (the real port when configured as 0), or null without a TCP listener. */
    public InetSocketAddress tcpAddress() {
        return tcpChannel == null ? null : (InetSocketAddress) tcpChannel.localAddress();
    }

    /** The bound UDP address, or null without a UDP listener. */
    public InetSocketAddress udpAddress() {
        return udpChannel == null ? null : (InetSocketAddress) udpChannel.localAddress();
    }

    public int activeConnections() {
        return connections.active();
    }

    public int activeUdpSessions() {
        return udpSessions.get();
    }

    /** Bytes queued for writing across all connections; backpressure keeps each near the high watermark. */
    public long pendingOutboundBytes() {
        return connections.pendingOutboundBytes();
    }

    /** Completes when a shutdown has finished. */
    public CompletableFuture<Void> terminationFuture() {
        return terminated;
    }

    /** Graceful shutdown bounded by the configured shutdown timeout. */
    @Override
    public void close() {
        shutdown(config.shutdownTimeout());
    }

    /**
     * Stops accepting, lets every connection flush the replies it owes and closes it, forcing whatever
     * is still open when {@code timeout} runs out, then stops the event loops. Idempotent; must not be
     * called from one of this server's event loops.
     */
    public void shutdown(Duration timeout) {
        for (EventExecutor executor : group) {
            if (executor.inEventLoop()) {
                throw new IllegalStateException("shutdown: called on an event loop (expected: another thread)");
            }
        }
        if (!closing.compareAndSet(false, true)) {
            terminated.join();
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        if (tcpChannel != null) {
            tcpChannel.close().awaitUninterruptibly(remainingMillis(deadline));
        }
        if (udpChannel != null) {
            udpChannel.eventLoop().execute(() -> {
                udpChannel.flush();
                udpChannel.close();
            });
        }
        for (Channel ch : connections.channels()) {
            ch.eventLoop().execute(() -> {
                TcpSessionHandler session = ch.pipeline().get(TcpSessionHandler.class);
                if (session != null) {
                    session.shutdown();
                } else {
                    ch.close();
                }
            });
        }
        for (Channel ch : connections.channels()) {
            if (!ch.closeFuture().awaitUninterruptibly(remainingMillis(deadline))) {
                log.warn("shutdown: {} still flushing after {}; closing it", ch.remoteAddress(), timeout);
                ch.close();
            }
        }
        if (udpChannel != null) {
            udpChannel.closeFuture().awaitUninterruptibly(remainingMillis(deadline));
        }
        group.shutdownGracefully(0, Math.max(1, remainingMillis(deadline)), TimeUnit.MILLISECONDS)
                .awaitUninterruptibly();
        log.info("shut down");
        terminated.complete(null);
    }

    private static long remainingMillis(long deadlineNanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }
}
