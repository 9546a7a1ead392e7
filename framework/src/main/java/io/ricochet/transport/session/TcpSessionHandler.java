package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.FrameRun;
import io.ricochet.handler.BackpressureHandler;
import io.ricochet.handler.IdleTimedHandler;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a TCP pipeline: hands each frame to the {@link FrameHandler} (a read's run of frames to
 * {@link InPlaceReplies}), tells the connection's {@link TcpFrameSession} what the pipeline sees, and decides when
 * the connection ends. Every close that owes replies is a lingering close ({@link LingeringClose}): on a failed frame
 * handler or {@link FrameSession#close} at once; on a protocol error, a half-close or a graceful stop once the
 * handler owes no more replies.
 */
final class TcpSessionHandler extends IdleTimedHandler {
    private static final Logger log = LoggerFactory.getLogger(TcpSessionHandler.class);

    /** How often a draining session looks again whether it still owes replies. */
    static final long DRAIN_CHECK_MILLIS = 10;

    // Four fields: what the session already holds is reached through it, since an idle connection keeps this object.
    private final FrameHandler handler;
    private final TcpFrameSession session;
    private ChannelHandlerContext ctx;
    /** Set once the connection closes as soon as its handler owes nothing more: why it will close. */
    private CloseReason pendingClose;
    /** Whether this runs the idle timeout and backpressure itself: the fused stages. */
    private final boolean fused;

    /**
     * @param decoder     the pipeline's decoder, told to discard input once the connection is closing
     * @param idleTimeout the idle timeout, when this handler runs it and backpressure itself (the fused stages); null
     *                    when an {@link io.ricochet.handler.IdleFrameTimeoutHandler} and a {@link BackpressureHandler}
     *                    sit before it
     */
    TcpSessionHandler(FrameHandler handler, ConnectionStats stats, int width, FrameDecoder decoder,
            LingerTimeouts lingerTimeouts, Duration idleTimeout) {
        super(idleTimeout);
        this.fused = idleTimeout != null;
        this.handler = handler;
        this.session = new TcpFrameSession(handler, stats, width, decoder, lingerTimeouts);
    }

    /** The connection as its {@link FrameHandler} sees it. */
    FrameSession session() {
        return session;
    }

    @Override
    protected ConnectionStats idleStats() {
        return session.stats();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        session.bind(ctx);
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            startIdleClock(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        startIdleClock(ctx);
        handler.sessionOpened(session);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // The idle clock's part, when this runs it: a frame, served or not, is activity.
        frameSeen();
        if (session.refuses()) {
            // Decoded in the same batch as the frame whose handler closed the session, or after a stop began: not served.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof FrameRun run) {
            InPlaceReplies.answer(run, (InPlaceFrameHandler) handler, session);
            return;
        }
        session.handingOver();
        try {
            handler.onFrame(session, (ByteBuf) msg);
        } catch (RuntimeException e) {
            log.warn("closing {}: frame handler failed", ctx.channel().remoteAddress(), e);
            session.closeGracefully(CloseReason.ERROR);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        readBatchEnded();
        session.readComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            session.endInput();
            if (session.isLingering()) {
                // The peer's end of stream after our FIN: nothing is left to lose.
                ctx.close();
            } else if (!session.isClosing()) {
                // The peer half-closed: every frame it completed has been handed over; answer them, then close.
                closeOnceDrained(CloseReason.PEER);
            }
            // Else still flushing what is owed: the flush closes once it is written, seeing the input is shut.
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (fused) {
            // Backpressure's part, run here in the fused stages as BackpressureHandler runs it before this otherwise.
            BackpressureHandler.pauseReadingWhileUnwritable(ctx.channel());
        }
        if (session.isClosing()) {
            // Backpressure paused reading; a closing connection reads on, to discard, or a peer blocked writing never reads.
            ctx.channel().config().setAutoRead(true);
        } else {
            handler.writabilityChanged(session);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stopIdleClock();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stopIdleClock();
        session.closed();
        handler.sessionClosed(session);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            // The decoder counted it, passed on the frames before the bad one and discards the rest: their replies,
            // including those the handler gives later, go out first.
            log.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
            session.endInput();
            closeOnceDrained(CloseReason.PROTOCOL_ERROR);
        } else if (cause instanceof IOException) {
            // A reset or a failed write: the connection is gone, nothing more can be delivered.
            log.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
            session.stats().closing(CloseReason.PEER);
            ctx.close();
        } else {
            log.warn("closing {}: unexpected failure", ctx.channel().remoteAddress(), cause);
            session.closeGracefully(CloseReason.ERROR);
        }
    }

    /**
     * A graceful stop, on the event loop: serve nothing new (frames still reach a handler that
     * {@linkplain FrameHandler#receivesWhileDraining receives while draining}, to finish its own calls), let the
     * handler finish the replies it owes, then close lingering. The server's shutdown timeout bounds the wait.
     */
    void drain() {
        if (session.isClosing() || session.isDraining()) {
            return;
        }
        if (!session.startDraining()) {
            session.discardInput();
        }
        closeOnceDrained(CloseReason.SHUTDOWN);
    }

    /** Whether the handler still owes replies on a connection that is not closing: the idle timeout waits for them. */
    @Override
    public boolean owesReplies() {
        return session.owesReplies();
    }

    /**
     * Closes lingering once the handler owes no more replies ({@link FrameHandler#owesReplies}), looked at
     * again every few milliseconds: replies given later, from a timer or an executor, are not lost.
     */
    private void closeOnceDrained(CloseReason reason) {
        session.stats().closing(reason);
        if (pendingClose == null) {
            pendingClose = reason;
            closeWhenDrained();
        }
    }

    private void closeWhenDrained() {
        if (!ctx.channel().isOpen() || session.isClosing()) {
            return;
        }
        if (handler.owesReplies(session)) {
            ctx.executor().schedule(this::closeWhenDrained, DRAIN_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            session.closeGracefully(pendingClose);
        }
    }
}
