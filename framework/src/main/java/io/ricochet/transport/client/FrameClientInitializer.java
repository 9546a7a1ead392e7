package io.ricochet.transport.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.FrameEncoder;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseHandler;
import io.ricochet.tls.Tls;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import io.ricochet.transport.session.LingerTimeouts;
import io.ricochet.transport.session.Sessions;
import java.net.InetSocketAddress;

/**
 * The client end of a framed connection: the server's codec and session handler, so a client
 * {@link FrameHandler} sees the same {@link FrameSession} API. Without idle timeout and backpressure,
 * which are the server's policy. Writes made outside a read (calls from the application) are flushed
 * in batches by the session handler, so many calls in flight cost far fewer syscalls than calls.
 */
final class FrameClientInitializer {
    /**
     * A closing client waits for the server's end of stream as long as a server does by default. A client has no idle
     * timeout to bound its close, so a peer that neither reads nor ends its stream is cut off at ten times that.
     */
    static final LingerTimeouts LINGER_TIMEOUTS = new LingerTimeouts(ServerConfig.DEFAULT_LINGER_TIMEOUT.toNanos(),
            10 * ServerConfig.DEFAULT_LINGER_TIMEOUT.toNanos());

    private FrameClientInitializer() {
    }

    /**
     * @param tls   TLS to {@code remote}, whose name or address its certificate must carry; null for none
     * @param noise the Noise channel to {@code remote}; null for none
     */
    static void init(Channel ch, LengthField lengthField, int maxFrame, FrameHandler handler, TransportCounters counters,
            Tls tls, ClientNoiseConfig noise, InetSocketAddress remote) {
        counters.opened();
        ConnectionStats stats = new ConnectionStats(counters);
        ChannelPipeline p = ch.pipeline();
        if (tls != null) {
            Sessions.addTls(p, tls, stats, tls.context().newHandler(ch.alloc(), remote.getHostString(),
                    remote.getPort()));
        } else if (noise != null) {
            p.addFirst(PipelineCustomizer.NOISE, NoiseHandler.client(noise, lengthField.width(), stats));
        }
        FrameDecoder decoder = new FrameDecoder(lengthField, maxFrame, stats);
        p.addLast(PipelineCustomizer.DECODER, decoder);
        // Without the decoder: a client sends requests of its own, never a received frame back, so tracking the
        // frame in hand (to frame a reply in place) would be work for nothing.
        p.addLast(PipelineCustomizer.ENCODER, new FrameEncoder(lengthField, maxFrame, stats));
        p.addLast(PipelineCustomizer.SESSION, Sessions.tcpSession(handler, stats, lengthField.width(), decoder,
                LINGER_TIMEOUTS));
    }
}
