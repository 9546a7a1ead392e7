package io.ricochet.handler;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Ticker;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection that completes no frame for the idle timeout. Sits after the frame decoder, so
 * bytes that never finish a frame (a client sending one byte a second) do not keep it open, and a
 * connection whose reading is paused by backpressure still ages. The clock starts when the channel
 * becomes active. One timer per channel, re-armed for the remainder; frames only stamp a field, once
 * per read batch. A connection that is still owed replies (a long call being served) is not idle: the
 * clock is looked at again one timeout later.
 */
public final class IdleFrameTimeoutHandler extends ChannelInboundHandlerAdapter implements Runnable {
    private final long timeoutNanos;
    private final ConnectionStats stats;
    private final RepliesOwed owesReplies;
    private ChannelHandlerContext ctx;
    private Ticker ticker;
    private long lastFrameNanos;
    private boolean frameInBatch;
    private Future<?> timer;

    public IdleFrameTimeoutHandler(Duration timeout, ConnectionStats stats) {
        this(timeout, stats, () -> false);
    }

    /** @param owesReplies whether the connection's handler still owes replies; asked on the event loop at each expiry */
    public IdleFrameTimeoutHandler(Duration timeout, ConnectionStats stats, RepliesOwed owesReplies) {
        this.timeoutNanos = timeout.toNanos();
        this.stats = stats;
        this.owesReplies = owesReplies;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
        ctx.fireChannelActive();
    }

    private void start(ChannelHandlerContext ctx) {
        if (this.ctx != null) {
            return;
        }
        this.ctx = ctx;
        this.ticker = ctx.executor().ticker();
        this.lastFrameNanos = ticker.nanoTime();
        timer = ctx.executor().schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        frameInBatch = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (frameInBatch) {
            frameInBatch = false;
            lastFrameNanos = ticker.nanoTime();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void run() {
        if (!ctx.channel().isOpen()) {
            return;
        }
        long idle = ticker.nanoTime() - lastFrameNanos;
        if (idle < timeoutNanos) {
            timer = ctx.executor().schedule(this, timeoutNanos - idle, TimeUnit.NANOSECONDS);
        } else if (owesReplies.owesReplies()) {
            timer = ctx.executor().schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
        } else {
            stats.closing(CloseReason.IDLE);
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancel();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel();
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
