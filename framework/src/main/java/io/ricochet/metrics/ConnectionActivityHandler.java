package io.ricochet.metrics;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Tells {@link MetricsConnections} when a connection is active: a whole request read, an answer written. It sits
 * right after the aggregator, as the idle timeout does, so bytes that never finish a request (a slow-header client)
 * leave a connection as idle as it was, and first in line to be displaced. Stateless: one instance serves every
 * channel of an endpoint.
 */
@Sharable
final class ConnectionActivityHandler extends ChannelDuplexHandler {
    private final MetricsConnections connections;
    private final ChannelFutureListener written;

    ConnectionActivityHandler(MetricsConnections connections) {
        this.connections = connections;
        this.written = future -> {
            if (future.isSuccess()) {
                connections.touch(future.channel());
            }
        };
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        connections.touch(ctx.channel());
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ctx.write(msg, promise.unvoid().addListener(written));
    }
}
