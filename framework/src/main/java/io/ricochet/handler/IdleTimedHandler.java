package io.ricochet.handler;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A handler that keeps its connection's idle clock: it closes a connection that completes no frame for the idle
 * timeout ({@link IdleFrameTimeoutHandler} says which frames count, and why). The clock is kept here, not in a handler
 * of its own, so that a session handler may run it without a pipeline hop: {@link IdleFrameTimeoutHandler} is this
 * clock alone, the server's fused session handler is this clock and the session. Subclasses call
 * {@link #startIdleClock} once the channel is active, {@link #frameSeen} for each frame, {@link #readBatchEnded} at
 * each read's end and {@link #stopIdleClock} when the channel closes or the handler is removed. One timer per
 * channel, re-armed for the remainder; frames only stamp a field, once per read batch.
 *
 * <pre>{@code
 * final class MySession extends IdleTimedHandler {
 *     MySession() { super(Duration.ofSeconds(30)); }
 *     public void channelActive(ChannelHandlerContext ctx) { startIdleClock(ctx); ctx.fireChannelActive(); }
 *     ...
 * }
 * }</pre>
 */
public abstract class IdleTimedHandler extends ChannelInboundHandlerAdapter implements Runnable, RepliesOwed {
    private final long timeoutNanos;
    private ChannelHandlerContext clockCtx;
    private long lastFrameNanos;
    private boolean frameInBatch;
    private Future<?> timer;

    /** @param timeout the idle timeout; null for a handler that keeps no clock (one beside it does) */
    protected IdleTimedHandler(Duration timeout) {
        this.timeoutNanos = timeout == null ? 0 : timeout.toNanos();
    }

    /** The counters the idle close is counted in. */
    protected abstract ConnectionStats idleStats();

    /** Whether this handler keeps the idle clock. */
    protected final boolean keepsIdleClock() {
        return timeoutNanos > 0;
    }

    /** Starts the clock, once: when the channel becomes active (or is, when the handler is added). */
    protected final void startIdleClock(ChannelHandlerContext ctx) {
        if (timeoutNanos == 0 || clockCtx != null) {
            return;
        }
        clockCtx = ctx;
        lastFrameNanos = ctx.executor().ticker().nanoTime();
        timer = ctx.executor().schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** A frame completed in this read batch. */
    protected final void frameSeen() {
        frameInBatch = true;
    }

    /** A read batch ended: its frames, if any, reset the clock. */
    protected final void readBatchEnded() {
        if (frameInBatch && clockCtx != null) {
            frameInBatch = false;
            lastFrameNanos = clockCtx.executor().ticker().nanoTime();
        }
    }

    /** The timer's expiry, on the event loop: re-armed for the remainder, or the connection closed as idle. */
    @Override
    public final void run() {
        if (clockCtx == null || !clockCtx.channel().isOpen()) {
            return;
        }
        long idle = clockCtx.executor().ticker().nanoTime() - lastFrameNanos;
        if (idle < timeoutNanos) {
            timer = clockCtx.executor().schedule(this, timeoutNanos - idle, TimeUnit.NANOSECONDS);
        } else if (owesReplies()) {
            // Serving a long call is not idle: looked at again one timeout later.
            timer = clockCtx.executor().schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
        } else {
            idleStats().closing(CloseReason.IDLE);
            clockCtx.close();
        }
    }

    /** Stops the clock: the channel closed, or the handler left the pipeline. */
    protected final void stopIdleClock() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
