package io.ricochet.transport;

import io.netty.channel.Channel;

/**
 * Adds handlers to each connection's pipeline after Ricochet's own, which are named by the constants
 * here. A server's are, in order: TLS and its guard (with {@code tls(...)}) or Noise (with {@code noise(...)}),
 * decoder, encoder, idle timeout, backpressure, session. A {@link FrameClient}'s have no idle timeout or
 * backpressure, and its raw connections only a decoder and the caller's handler as session: place handlers
 * relative to {@link #DECODER}, {@link #ENCODER} or {@link #SESSION}.
 * For TLS use the builders' {@code tls(...)}, which also bounds handshakes in time and counts those that
 * fail. Runs on the connection's event loop when it is accepted (server) or connected (client).
 */
@FunctionalInterface
public interface PipelineCustomizer {
    /** Adds nothing. */
    PipelineCustomizer NONE = channel -> { };

    /** The {@code SslHandler}, first, when the server or client was given {@code tls(...)}. */
    String TLS = "ricochet.tls";
    /** Right after {@link #TLS}: counts and closes on a TLS failure. */
    String TLS_GUARD = "ricochet.tls.guard";
    /** The Noise channel's handler, first, when the server or client was given {@code noise(...)}. */
    String NOISE = "ricochet.noise";
    String DECODER = "ricochet.decoder";
    String ENCODER = "ricochet.encoder";
    /** Servers only. */
    String IDLE_TIMEOUT = "ricochet.idle";
    /** Servers only. */
    String BACKPRESSURE = "ricochet.backpressure";
    String SESSION = "ricochet.session";

    void customize(Channel channel);
}
