package io.ricochet.transport;

import io.netty.channel.Channel;

/**
 * Adds handlers to each connection's pipeline after Ricochet's own, which are named by the constants
 * here, in this order: decoder, encoder, idle timeout, backpressure, session. TLS goes first:
 * {@code ch.pipeline().addFirst("tls", sslContext.newHandler(ch.alloc()))}. Runs on the connection's
 * event loop when it is accepted (server) or connected (client).
 */
@FunctionalInterface
public interface PipelineCustomizer {
    /** Adds nothing. */
    PipelineCustomizer NONE = channel -> { };

    String DECODER = "ricochet.decoder";
    String ENCODER = "ricochet.encoder";
    String IDLE_TIMEOUT = "ricochet.idle";
    String BACKPRESSURE = "ricochet.backpressure";
    String SESSION = "ricochet.session";

    void customize(Channel channel);
}
