package io.ricochet.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A small HTTP server for scrapers: Prometheus text at {@code /metrics}, {@code 200} at {@code /health}.
 * It runs on its own single NIO thread so a scrape never takes time from the I/O event loops.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final int MAX_REQUEST_BYTES = 16 * 1024;

    private final EventLoopGroup group;
    private final Channel channel;

    private MetricsEndpoint(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /** Binds {@code host:port} (0 for an ephemeral port) and serves {@code registry}. */
    public static MetricsEndpoint start(String host, int port, PrometheusMeterRegistry registry) {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("ricochet-metrics", true),
                NioIoHandler.newFactory());
        MetricsHttpHandler handler = new MetricsHttpHandler(registry);
        ChannelFuture bound = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_REQUEST_BYTES), handler);
                    }
                })
                .bind(host, port)
                .awaitUninterruptibly();
        if (!bound.isSuccess()) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw new IllegalStateException("cannot bind metrics " + host + ":" + port + ": "
                    + bound.cause().getMessage(), bound.cause());
        }
        return new MetricsEndpoint(group, bound.channel());
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** {@code http://host:port/metrics}. */
    public String metricsUrl() {
        InetSocketAddress a = address();
        return "http://" + a.getHostString() + ":" + a.getPort() + "/metrics";
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
