package io.ricochet.metrics;

import static io.ricochet.config.Checks.notNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.internal.AcceptErrorHandler;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small HTTP server for scrapers: Prometheus text at {@code /metrics}, {@code 200} at {@code /health}.
 * It runs on its own single NIO thread so a scrape never takes time from the I/O event loops. Each
 * connection is served one request at a time and closed when idle; connections are capped in number, in all and per
 * source address, and a new one past a cap displaces the longest-idle one ({@link MetricsEndpointConfig}), counted
 * as {@value MeterNames#METRICS_CONNECTIONS_EVICTED} on {@code registry}.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private final EventLoopGroup group;
    private final Channel channel;
    private final MetricsConnections connections;
    private final PrometheusMeterRegistry registry;
    private final List<Meter> meters;

    private MetricsEndpoint(EventLoopGroup group, Channel channel, MetricsConnections connections,
            PrometheusMeterRegistry registry, Counter acceptErrors) {
        this.group = group;
        this.channel = channel;
        this.connections = connections;
        this.registry = registry;
        this.meters = List.of(evictions(registry, connections, "max_connections", false),
                evictions(registry, connections, "max_connections_per_address", true), acceptErrors);
    }

    private static Meter evictions(PrometheusMeterRegistry registry, MetricsConnections connections, String reason,
            boolean perAddress) {
        return FunctionCounter.builder(MeterNames.METRICS_CONNECTIONS_EVICTED, connections, c -> c.evicted(perAddress))
                .description("Metrics endpoint connections closed to make room for a new one, by the cap reached")
                .tag(MeterNames.TAG_REASON, reason).register(registry);
    }

    /** Binds {@code host:port} (0 for an ephemeral port) and serves {@code registry} with the default limits. */
    public static MetricsEndpoint start(String host, int port, PrometheusMeterRegistry registry) {
        return start(host, port, registry, MetricsEndpointConfig.DEFAULTS);
    }

    /** Binds {@code host:port} (0 for an ephemeral port) and serves {@code registry} within {@code config}'s limits. */
    public static MetricsEndpoint start(String host, int port, PrometheusMeterRegistry registry,
            MetricsEndpointConfig config) {
        notNull("registry", registry);
        notNull("config", config);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("ricochet-metrics", true),
                NioIoHandler.newFactory());
        MetricsConnections connections = new MetricsConnections(config.maxConnections(),
                config.maxConnectionsPerAddress());
        Counter acceptErrors = Counter.builder(MeterNames.METRICS_ACCEPT_ERRORS)
                .description("Failed accepts on the metrics port; each pauses its accepting for a second")
                .register(registry);
        ChannelFuture bound = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                // Out of descriptors, accept fails at once again: pause, count, and log one line per 10 s, not each.
                .handler(new AcceptErrorHandler("metrics " + host + ":" + port, acceptErrors::increment))
                // Connections read only when their handler asks: one request at a time (MetricsChannelInitializer).
                .childOption(ChannelOption.AUTO_READ, false)
                .childHandler(new MetricsChannelInitializer(config.idleTimeout(), connections,
                        new MetricsHttpHandler(registry)))
                .bind(host, port)
                .awaitUninterruptibly();
        if (!bound.isSuccess()) {
            registry.remove(acceptErrors);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw new IllegalStateException("cannot bind metrics " + host + ":" + port + ": "
                    + bound.cause().getMessage(), bound.cause());
        }
        return new MetricsEndpoint(group, bound.channel(), connections, registry, acceptErrors);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** {@code http://host:port/metrics}. */
    public String metricsUrl() {
        InetSocketAddress a = address();
        return "http://" + a.getHostString() + ":" + a.getPort() + "/metrics";
    }

    /** Connections admitted and not yet closed. */
    int openConnections() {
        return connections.active();
    }

    /** Bytes of answers queued in the server and not yet taken by the sockets, over all open connections. */
    long pendingOutboundBytes() {
        return connections.pendingOutboundBytes();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        // Close the connections while the loop still runs its tasks, so each pipeline sees channelInactive and
        // releases the requests it holds; channels the group closes while shutting down may never see it.
        for (Channel child : connections.close()) {
            child.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        meters.forEach(registry::remove);
    }
}
