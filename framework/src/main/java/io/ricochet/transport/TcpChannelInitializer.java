package io.ricochet.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.FrameEncoder;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.BackpressureHandler;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.handler.IdleFrameTimeoutHandler;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.noise.NoiseHandler;
import io.ricochet.noise.NoiseHandshakes;
import io.ricochet.tls.Tls;
import java.util.List;
import java.util.function.Supplier;

/**
 * Builds each accepted connection's pipeline, or closes it at once when over the connection cap:
 * [TLS → TLS guard, or Noise →] decoder → encoder → idle timeout → backpressure → session, named as {@link PipelineCustomizer} says,
 * then whatever the customizer adds. For an {@link InPlaceFrameHandler}, when the customizer left the handlers from
 * decoder to session as they were (handlers added there later, after the channel is set up, must not expect one body
 * per frame), the decoder hands over each read's frames as one {@link io.ricochet.codec.FrameRun}. Public so
 * benchmarks and tests can build the exact server pipeline on an {@code EmbeddedChannel}.
 */
public final class TcpChannelInitializer extends ChannelInitializer<Channel> {
    private final ServerConfig config;
    private final Supplier<FrameHandler> handlers;
    private final TransportCounters counters;
    private final ConnectionRegistry connections;
    private final PipelineCustomizer customizer;
    private final Tls tls;
    private final NoiseHandshakes noise;

    public TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer) {
        this(config, handlers, counters, connections, customizer, null);
    }

    /** @param tls TLS in front of the framing, or null for none */
    public TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer, Tls tls) {
        this(config, handlers, counters, connections, customizer, tls, null);
    }

    /**
     * @param tls   TLS in front of the framing, or null for none
     * @param noise the Noise channel in front of the framing, its handshakes run by this, or null for none; not with
     *              {@code tls}
     */
    public TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer, Tls tls, NoiseHandshakes noise) {
        if (tls != null && noise != null) {
            throw new IllegalArgumentException("tls and noise on one listener (expected: one or the other)");
        }
        this.noise = noise;
        this.config = config;
        this.handlers = handlers;
        this.counters = counters;
        this.connections = connections;
        this.customizer = customizer;
        this.tls = tls;
    }

    @Override
    protected void initChannel(Channel ch) {
        counters.opened();
        if (!connections.admit(ch)) {
            // Over the cap, or accepted just as a stop began (as connections still in the backlog are reset then).
            counters.closed(connections.isClosed() ? CloseReason.SHUTDOWN : CloseReason.LIMIT);
            ch.close();
            return;
        }
        ConnectionStats stats = new ConnectionStats(counters);
        ChannelPipeline p = ch.pipeline();
        if (tls != null) {
            addTls(p, tls, stats, tls.context().newHandler(ch.alloc()));
        } else if (noise != null) {
            p.addFirst(PipelineCustomizer.NOISE, NoiseHandler.server(noise, config.lengthField().width(), stats));
        }
        FrameDecoder decoder = new FrameDecoder(config.lengthField(), config.maxFrame(), stats);
        FrameEncoder encoder = new FrameEncoder(config.lengthField(), config.maxFrame(), stats, decoder);
        FrameHandler handler = handlers.get();
        TcpSessionHandler session = new TcpSessionHandler(handler, stats, config.lengthField().width(), decoder,
                config.lingerTimeout().toNanos(), 0);
        IdleFrameTimeoutHandler idle = new IdleFrameTimeoutHandler(config.idleTimeout(), stats, session::owesReplies);
        p.addLast(PipelineCustomizer.DECODER, decoder);
        p.addLast(PipelineCustomizer.ENCODER, encoder);
        p.addLast(PipelineCustomizer.IDLE_TIMEOUT, idle);
        p.addLast(PipelineCustomizer.BACKPRESSURE, BackpressureHandler.INSTANCE);
        p.addLast(PipelineCustomizer.SESSION, session);
        customizer.customize(ch);
        if (handler instanceof InPlaceFrameHandler
                && frameworkHandlersIntact(p, List.of(decoder, encoder, idle, BackpressureHandler.INSTANCE, session))) {
            decoder.emitRuns();
        }
    }

    /**
     * Whether the pipeline from the decoder to the session is exactly {@code ours}, in order: a customizer that added,
     * removed or replaced a handler there (even under the same name) may expect one body per frame.
     */
    private static boolean frameworkHandlersIntact(ChannelPipeline p, List<ChannelHandler> ours) {
        List<String> names = p.names();
        int first = names.indexOf(PipelineCustomizer.DECODER);
        if (first < 0 || names.size() - first < ours.size()) {
            return false;
        }
        for (int i = 0; i < ours.size(); i++) {
            if (p.get(names.get(first + i)) != ours.get(i)) {
                return false;
            }
        }
        return true;
    }

    /** The TLS handler and its guard, first in the pipeline. */
    static void addTls(ChannelPipeline p, Tls tls, ConnectionStats stats, SslHandler ssl) {
        ssl.setHandshakeTimeoutMillis(tls.handshakeTimeout().toMillis());
        p.addFirst(PipelineCustomizer.TLS, ssl);
        p.addAfter(PipelineCustomizer.TLS, PipelineCustomizer.TLS_GUARD, new TlsGuardHandler(stats));
    }
}
