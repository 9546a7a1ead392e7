package io.ricochet.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.FrameEncoder;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.BackpressureHandler;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.handler.IdleFrameTimeoutHandler;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportMeters;

/**
 * Builds each accepted connection's pipeline, or closes it at once when over the connection cap:
 * decoder → encoder → idle timeout → backpressure → session. Public so benchmarks and tests can build
 * the exact server pipeline on an {@code EmbeddedChannel}.
 */
public final class TcpChannelInitializer extends ChannelInitializer<Channel> {
    private final ServerConfig config;
    private final FrameHandler handler;
    private final TransportMeters meters;
    private final ConnectionRegistry connections;

    public TcpChannelInitializer(ServerConfig config, FrameHandler handler, TransportMeters meters,
            ConnectionRegistry connections) {
        this.config = config;
        this.handler = handler;
        this.meters = meters;
        this.connections = connections;
    }

    @Override
    protected void initChannel(Channel ch) {
        meters.opened();
        if (!connections.admit(ch)) {
            meters.closed(CloseReason.LIMIT);
            ch.close();
            return;
        }
        ConnectionStats stats = new ConnectionStats(meters);
        ChannelPipeline p = ch.pipeline();
        FrameDecoder decoder = new FrameDecoder(config.lengthField(), config.maxFrame(), stats);
        p.addLast(decoder);
        p.addLast(new FrameEncoder(config.lengthField(), config.maxFrame(), stats));
        p.addLast(new IdleFrameTimeoutHandler(config.idleTimeout(), stats));
        p.addLast(BackpressureHandler.INSTANCE);
        p.addLast(new TcpSessionHandler(handler, stats, config.lengthField().width(), decoder,
                config.lingerTimeout().toNanos(), 0));
    }
}
