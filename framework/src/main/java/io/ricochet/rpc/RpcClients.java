package io.ricochet.rpc;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.transport.FrameClientInitializer;
import io.ricochet.transport.FrameSession;
import io.ricochet.transport.IoTransport;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A group of RPC clients sharing event loops and meters: one per application, many connections.
 *
 * <pre>{@code
 * try (RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), registry)) {
 *     RpcClient client = clients.connect(new InetSocketAddress("127.0.0.1", 7100)).join();
 *     ByteString answer = client.call("greet", ByteString.copyFromUtf8("ada")).join();
 * }
 * }</pre>
 */
public final class RpcClients implements AutoCloseable {
    public static final String METER_TAG = "rpc_client";

    private final RpcClientConfig config;
    private final IoTransport transport;
    private final EventLoopGroup group;
    private final RpcMetrics metrics;
    private final RpcMetrics servedMetrics;
    private final TransportMeters transportMeters;
    private final AtomicInteger connected = new AtomicInteger();

    private RpcClients(RpcClientConfig config, MeterRegistry registry) {
        this.config = config;
        this.transport = IoTransport.resolve(config.transport());
        this.group = transport.newEventLoopGroup(config.resolvedIoThreads(), "ricochet-rpc-client");
        this.metrics = RpcMetrics.client(registry, config.rpc());
        this.servedMetrics = RpcMetrics.server(registry, config.rpc());
        this.transportMeters = TransportMeters.register(registry, METER_TAG, connected::get);
    }

    public static RpcClients create(RpcClientConfig config, MeterRegistry registry) {
        return new RpcClients(config, registry);
    }

    /** A client connected to {@code target}; the future fails with {@code UNAVAILABLE} if it cannot connect. */
    public CompletableFuture<RpcClient> connect(InetSocketAddress target) {
        RpcClient client = new RpcClient(this, target);
        return client.start().thenApply(ignored -> client);
    }

    RpcClientConfig config() {
        return config;
    }

    EventLoopGroup group() {
        return group;
    }

    Bootstrap bootstrap(RpcFrameHandler frames) {
        return new Bootstrap().group(group).channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis())
                .handler(new FrameClientInitializer(LengthField.FOUR, config.rpc().maxFrame(), frames, transportMeters));
    }

    RpcConnection newConnection(FrameSession session, RequestRouter router) {
        return new RpcConnection(session, config.rpc(), router, metrics, servedMetrics);
    }

    void connectionOpened() {
        connected.incrementAndGet();
    }

    void connectionClosed() {
        connected.decrementAndGet();
    }

    /** The client I/O transport in use, AUTO resolved. */
    public TransportKind io() {
        return transport.kind();
    }

    /** Closes every connection of the group and stops its event loops. */
    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
