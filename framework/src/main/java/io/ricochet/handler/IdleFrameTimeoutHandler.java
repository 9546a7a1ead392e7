package io.ricochet.handler;

import io.netty.channel.ChannelHandlerContext;
import io.ricochet.config.Checks;
import io.ricochet.metrics.ConnectionStats;
import java.time.Duration;

/**
 * Closes a connection that completes no frame for the idle timeout. Sits after the frame decoder, so
 * bytes that never finish a frame (a client sending one byte a second) do not keep it open, and a
 * connection whose reading is paused by backpressure still ages. The clock starts when the channel
 * becomes active. A connection that is still owed replies (a long call being served) is not idle: the
 * clock is looked at again one timeout later. The server runs this clock inside its session handler unless a pipeline
 * customizer may put handlers between them; this handler is the clock on its own ({@link IdleTimedHandler}).
 */
public final class IdleFrameTimeoutHandler extends IdleTimedHandler {
    private final ConnectionStats stats;
    private final RepliesOwed owesReplies;

    public IdleFrameTimeoutHandler(Duration timeout, ConnectionStats stats) {
        this(timeout, stats, () -> false);
    }

    /** @param owesReplies whether the connection's handler still owes replies; asked on the event loop at each expiry */
    public IdleFrameTimeoutHandler(Duration timeout, ConnectionStats stats, RepliesOwed owesReplies) {
        super(Checks.positive("timeout", timeout));
        this.stats = stats;
        this.owesReplies = owesReplies;
    }

    @Override
    protected ConnectionStats idleStats() {
        return stats;
    }

    @Override
    public boolean owesReplies() {
        return owesReplies.owesReplies();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            startIdleClock(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        startIdleClock(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        frameSeen();
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        readBatchEnded();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stopIdleClock();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stopIdleClock();
    }
}
