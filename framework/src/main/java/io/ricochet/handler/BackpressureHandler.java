package io.ricochet.handler;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Stops reading a connection while its queued replies are above the channel's high write-buffer
 * watermark and resumes once they drain below the low one, so a client that sends but never reads
 * cannot grow server memory without bound. Stateless: one instance serves every channel.
 */
@Sharable
public final class BackpressureHandler extends ChannelInboundHandlerAdapter {
    public static final BackpressureHandler INSTANCE = new BackpressureHandler();

    private BackpressureHandler() {
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        pauseReadingWhileUnwritable(ctx.channel());
        ctx.fireChannelWritabilityChanged();
    }

    /** Reads {@code channel} only while it is writable: what this handler does, for a handler that runs it itself. */
    public static void pauseReadingWhileUnwritable(Channel channel) {
        channel.config().setAutoRead(channel.isWritable());
    }
}
