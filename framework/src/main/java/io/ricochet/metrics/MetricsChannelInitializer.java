package io.ricochet.metrics;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.flow.FlowControlHandler;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits each metrics connection ({@link MetricsConnections}: past a cap it displaces an idle one) and builds its
 * pipeline: codec → aggregator → activity → idle close → flow control → one request at a time → HTTP handler. The
 * channel does not read on its own (autoRead off): see {@link OneRequestAtATimeHandler}.
 */
final class MetricsChannelInitializer extends ChannelInitializer<Channel> {
    private static final Logger log = LoggerFactory.getLogger(MetricsChannelInitializer.class);
    /** A request line past this is answered 400. */
    static final int MAX_REQUEST_LINE_BYTES = 4 * 1024;
    /** Headers past this are answered 431. */
    static final int MAX_HEADER_BYTES = 8 * 1024;
    /** A body past this is answered 413 by the aggregator, which then closes. */
    static final int MAX_CONTENT_BYTES = 16 * 1024;
    /**
     * Requests a client may send ahead of their answers. One read can hold thousands; the codec fails past
     * this many and the connection is closed, so the requests waiting in the flow control stay few.
     */
    static final int MAX_PIPELINED_REQUESTS = 16;

    private final Duration idleTimeout;
    private final MetricsConnections connections;
    private final ConnectionActivityHandler activity;
    private final MetricsHttpHandler handler;

    MetricsChannelInitializer(Duration idleTimeout, MetricsConnections connections, MetricsHttpHandler handler) {
        this.idleTimeout = idleTimeout;
        this.connections = connections;
        this.activity = new ConnectionActivityHandler(connections);
        this.handler = handler;
    }

    @Override
    protected void initChannel(Channel ch) {
        if (!connections.admit(ch)) {
            log.debug("closing metrics connection {}: the endpoint is closing", ch.remoteAddress());
            ch.close();
            return;
        }
        HttpDecoderConfig decoder = new HttpDecoderConfig()
                .setMaxInitialLineLength(MAX_REQUEST_LINE_BYTES)
                .setMaxHeaderSize(MAX_HEADER_BYTES);
        ch.pipeline().addLast(
                new HttpServerCodec(decoder, MAX_PIPELINED_REQUESTS),
                new HttpObjectAggregator(MAX_CONTENT_BYTES),
                activity,
                new IdleCloseHandler(idleTimeout),
                new FlowControlHandler(),
                new OneRequestAtATimeHandler(),
                handler);
    }
}
