package io.ricochet.transport;

import io.netty.channel.Channel;

/**
 * Adds handlers to each connection's pipeline after Ricochet's own, which are named by the constants
 * here. A server's are, in order: decoder, encoder, idle timeout, backpressure, session. A
 * {@link FrameClient}'s have no idle timeout or backpressure (a flush consolidator, unnamed, comes first),
 * and its raw connections only a decoder and the caller's handler as session: place handlers relative to
 * {@link #DECODER}, {@link #ENCODER} or {@link #SESSION}, or first, to run on both. TLS goes first:
 * {@code ch.pipeline().addFirst("tls", sslContext.newHandler(ch.alloc()))}. Runs on the connection's
 * event loop when it is accepted (server) or connected (client).
 */
@FunctionalInterface
public interface PipelineCustomizer {
    /** Adds nothing. */
    PipelineCustomizer NONE = channel -> { };

    String DECODER = "ricochet.decoder";
    String ENCODER = "ricochet.encoder";
    /** Servers only. */
    String IDLE_TIMEOUT = "ricochet.idle";
    /** Servers only. */
    String BACKPRESSURE = "ricochet.backpressure";
    String SESSION = "ricochet.session";

    void customize(Channel channel);
}
