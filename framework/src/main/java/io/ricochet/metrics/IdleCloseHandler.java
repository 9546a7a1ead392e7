package io.ricochet.metrics;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a metrics connection that neither completes a request nor finishes a write for the timeout. It sits
 * after the aggregator, so bytes that never finish a request (a slow-header client) do not keep it open, and
 * before the flow control, so requests held back there do not count as a read still in progress.
 */
final class IdleCloseHandler extends IdleStateHandler {
    private static final Logger log = LoggerFactory.getLogger(IdleCloseHandler.class);

    IdleCloseHandler(Duration timeout) {
        super(0, 0, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) {
        log.debug("closing idle metrics connection {}", ctx.channel().remoteAddress());
        ctx.close();
    }
}
