package io.ricochet.transport;

import io.netty.channel.Channel;
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
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.tls.Tls;
import java.util.List;
import java.util.function.Supplier;

/**
 * Builds each accepted connection's pipeline, or closes it at once when over the connection cap:
 * [TLS → TLS guard, or Noise →] decoder → encoder → idle timeout → backpressure → session, named as {@link PipelineCustomizer} says,
 * then whatever the customizer adds. For an {@link InPlaceFrameHandler}, when the customizer put nothing between
 * decoder and session, the decoder hands over each read's frames as one {@link io.ricochet.codec.FrameRun}. Public so benchmarks and tests can build the exact server
 * pipeline on an {@code EmbeddedChannel}.
 */
public final class TcpChannelInitializer extends ChannelInitializer<Channel> {
    private static final List<String> FRAMEWORK_HANDLERS = List.of(PipelineCustomizer.DECODER,
            PipelineCustomizer.ENCODER, PipelineCustomizer.IDLE_TIMEOUT, PipelineCustomizer.BACKPRESSURE,
            PipelineCustomizer.SESSION);
    private final ServerConfig config;
    private final Supplier<FrameHandler> handlers;
    private final TransportCounters counters;
    private final ConnectionRegistry connections;
    private final PipelineCustomizer customizer;
    private final Tls tls;
    private final ServerNoiseConfig noise;

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
     * @param noise the Noise channel in front of the framing, or null for none; not with {@code tls}
     */
    public TcpChannelInitializer(ServerConfig config, Supplier<FrameHandler> handlers, TransportCounters counters,
            ConnectionRegistry connections, PipelineCustomizer customizer, Tls tls, ServerNoiseConfig noise) {
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
        p.addLast(PipelineCustomizer.DECODER, decoder);
        p.addLast(PipelineCustomizer.ENCODER, new FrameEncoder(config.lengthField(), config.maxFrame(), stats, decoder));
        FrameHandler handler = handlers.get();
        TcpSessionHandler session = new TcpSessionHandler(handler, stats, config.lengthField().width(), decoder,
                config.lingerTimeout().toNanos(), 0);
        p.addLast(PipelineCustomizer.IDLE_TIMEOUT, new IdleFrameTimeoutHandler(config.idleTimeout(), stats, session::owesReplies));
        p.addLast(PipelineCustomizer.BACKPRESSURE, BackpressureHandler.INSTANCE);
        p.addLast(PipelineCustomizer.SESSION, session);
        customizer.customize(ch);
        if (handler instanceof InPlaceFrameHandler && nothingBetweenDecoderAndSession(p)) {
            decoder.emitRuns();
        }
    }

    /** Whether the customizer left the framework's handlers from decoder to session as they were, none in between. */
    private static boolean nothingBetweenDecoderAndSession(ChannelPipeline p) {
        List<String> names = p.names();
        int decoder = names.indexOf(PipelineCustomizer.DECODER);
        return decoder >= 0 && names.subList(decoder, names.size()).subList(0, Math.min(5, names.size() - decoder))
                .equals(FRAMEWORK_HANDLERS);
    }

    /** The TLS handler and its guard, first in the pipeline. */
    static void addTls(ChannelPipeline p, Tls tls, ConnectionStats stats, SslHandler ssl) {
        ssl.setHandshakeTimeoutMillis(tls.handshakeTimeout().toMillis());
        p.addFirst(PipelineCustomizer.TLS, ssl);
        p.addAfter(PipelineCustomizer.TLS, PipelineCustomizer.TLS_GUARD, new TlsGuardHandler(stats));
    }
}
