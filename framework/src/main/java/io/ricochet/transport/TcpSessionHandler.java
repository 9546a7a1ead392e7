package io.ricochet.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.FrameHeader;
import io.ricochet.codec.FrameRun;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import java.io.IOException;
import java.net.SocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a TCP pipeline: hands each frame to the {@link FrameHandler}, is the connection's
 * {@link FrameSession}, flushes once per read batch, and decides how the connection ends.
 *
 * <p>Every close that owes replies is a lingering close, as nginx's {@code lingering_close}: serve
 * nothing more, flush the replies owed, shut the output down (FIN), then read and discard until the
 * peer's end of stream, or until it has sent nothing for the linger timeout, and only then close.
 * Closing a socket with unread input makes the kernel send a reset, which drops what it has not yet
 * sent and, at the peer, what has arrived but not been read: a plain close loses replies already
 * written. A peer that keeps sending after the FIN is cut off by the idle timeout, which still runs.
 */
final class TcpSessionHandler extends ChannelInboundHandlerAdapter implements FrameSession {
    private static final Logger log = LoggerFactory.getLogger(TcpSessionHandler.class);
    /** Sends outside a read batch are flushed at least every this many writes when made back to back. */
    private static final int FLUSH_BATCH = 64;

    private final FrameHandler handler;
    private final ConnectionStats stats;
    private final int width;
    private final FrameDecoder decoder;
    private final long lingerNanos;
    private final long maxCloseNanos;
    private ChannelHandlerContext ctx;
    private boolean flushPending;
    private boolean inReadBatch;
    /** Writes made outside a read batch and not yet flushed, and whether a task to flush them is queued. */
    private int writesUnflushed;
    private boolean flushQueued;
    private final Runnable queuedFlush = this::queuedFlush;
    private boolean closing;
    /** Set once the connection closes as soon as its handler owes nothing more: why it will close. */
    private CloseReason pendingClose;
    /** A graceful stop is under way; frames reach the handler only if it asked to receive them while draining. */
    private volatile boolean draining;
    private boolean receiveWhileDraining;
    private long framesHandedOver;
    private long framesSent;
    private boolean lingering;
    private boolean inputShutdown;
    /** The handler was told no more frames will reach it ({@link FrameHandler#inputEnded}). */
    private boolean inputEnded;
    private long lastInputNanos;
    private Future<?> lingerTimer;
    private Future<?> closeDeadline;

    /**
     * @param decoder     the pipeline's decoder, told to discard input once the connection is closing
     * @param lingerNanos how long a closing connection waits, after its FIN, for the peer to send anything
     *                    or end its stream
     * @param maxCloseNanos how long a close may take in all, flush included, before it is forced; 0 for no
     *                    bound of its own (a server's idle timeout, which keeps running, bounds it)
     */
    TcpSessionHandler(FrameHandler handler, ConnectionStats stats, int width, FrameDecoder decoder, long lingerNanos,
            long maxCloseNanos) {
        this.handler = handler;
        this.stats = stats;
        this.width = width;
        this.decoder = decoder;
        this.lingerNanos = lingerNanos;
        this.maxCloseNanos = maxCloseNanos;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        handler.sessionOpened(this);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing || draining && !receiveWhileDraining) {
            // Decoded in the same batch as the frame whose handler closed the session, or after a stop began: not served.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof FrameRun run) {
            answerInPlace(run);
            return;
        }
        inReadBatch = true;
        framesHandedOver++;
        try {
            handler.onFrame(this, (ByteBuf) msg);
        } catch (RuntimeException e) {
            log.warn("closing {}: frame handler failed", ctx.channel().remoteAddress(), e);
            closeGracefully(CloseReason.ERROR);
        }
    }

    /**
     * A read's frames, for an {@link InPlaceFrameHandler}: each body rewritten where it lies, and the run written back
     * as the replies. If the handler fails on a frame, the frames before it are answered and the connection closes.
     */
    private void answerInPlace(FrameRun run) {
        InPlaceFrameHandler rewriter = (InPlaceFrameHandler) handler;
        ByteBuf frames = run.content();
        int count = run.count();
        int at = frames.readerIndex();
        int done = 0;
        try {
            for (; done < count; done++) {
                int length = (int) FrameHeader.getLength(frames, at, width);
                rewriter.rewrite(frames, at + width, length);
                at += width + length;
            }
        } catch (Error e) {
            run.release();
            throw e;
        } catch (RuntimeException e) {
            FrameRun answered = done == 0 ? null : run.retainedPrefix(done, at - frames.readerIndex());
            run.release();
            log.warn("closing {}: frame handler failed", ctx.channel().remoteAddress(), e);
            // The failed frame was taken, as on the per-frame path; those after it arrived after the close began.
            stats.framesUnread(count - done - 1);
            framesHandedOver += done;
            framesSent += done;
            if (answered != null) {
                ctx.write(answered, ctx.voidPromise());
            }
            closeGracefully(CloseReason.ERROR);
            return;
        }
        framesHandedOver += count;
        framesSent += count;
        ctx.write(run, ctx.voidPromise());
        flushPending = true;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inReadBatch = false;
        if (closing) {
            // Input discarded while lingering: the peer is still there.
            lastInputNanos = ctx.executor().ticker().nanoTime();
            return;
        }
        if (flushPending) {
            flushPending = false;
            writesUnflushed = 0;
            ctx.flush();
        } else {
            stats.publish();
        }
    }

    @Override
    public void send(ByteBuf body) {
        send(body, null);
    }

    @Override
    public void send(ByteBuf body, Runnable whenDone) {
        if (!body.isReadable()) {
            done(body, whenDone);
            throw new IllegalArgumentException("reply length: 0 (expected: > 0)");
        }
        if (!ctx.executor().inEventLoop()) {
            // Whether the session is closing, and whether a read batch will flush, are the event loop's to know.
            try {
                ctx.executor().execute(() -> send(body, whenDone));
            } catch (RejectedExecutionException e) {
                done(body, whenDone);
            }
            return;
        }
        if (closing) {
            // Nothing more is served once a close has begun; a write after the FIN would fail and cut the linger.
            done(body, whenDone);
            return;
        }
        framesSent++;
        ChannelPromise promise = whenDone == null ? ctx.voidPromise() : ctx.newPromise();
        if (whenDone != null) {
            promise.addListener(future -> whenDone.run());
        }
        ctx.write(body, promise);
        if (inReadBatch) {
            flushPending = true;
        } else {
            flushSoon();
        }
    }

    /**
     * A send outside a read batch (a timer, the application's own calls) is flushed by a task queued behind it, so
     * sends made back to back share one syscall; and at least every {@link #FLUSH_BATCH} writes or once the channel
     * turns unwritable, so they do not pile up unsent. Netty's {@code FlushConsolidationHandler} would do the same,
     * but it also defers the flush that ends each read batch to a task: that flush reaches it after the batch has
     * ended at its place in the pipeline.
     */
    private void flushSoon() {
        // Unwritable counts unflushed bytes too: flushed now, so a peer that reads is never taken for one that does not.
        if (++writesUnflushed >= FLUSH_BATCH || !ctx.channel().isWritable()) {
            flushWrites();
        } else if (!flushQueued) {
            flushQueued = true;
            try {
                ctx.executor().execute(queuedFlush);
            } catch (RejectedExecutionException e) {
                flushWrites();
            }
        }
    }

    private void queuedFlush() {
        flushQueued = false;
        if (writesUnflushed > 0) {
            flushWrites();
        }
    }

    private void flushWrites() {
        writesUnflushed = 0;
        ctx.flush();
    }

    /** A reply that will not be written: released, and its caller told. */
    private static void done(ByteBuf body, Runnable whenDone) {
        body.release();
        if (whenDone != null) {
            whenDone.run();
        }
    }

    @Override
    public void abort() {
        if (ctx.executor().inEventLoop()) {
            stats.closing(CloseReason.STALLED);
            ctx.close();
        } else {
            onLoop(this::abort);
        }
    }

    @Override
    public boolean isWritable() {
        return ctx.channel().isWritable();
    }

    @Override
    public boolean isDraining() {
        return draining;
    }

    @Override
    public long unansweredFrames() {
        return Math.max(0, framesHandedOver - framesSent);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            inputShutdown = true;
            endInput();
            if (lingering) {
                // The peer's end of stream after our FIN: nothing is left to lose.
                ctx.close();
            } else if (!closing) {
                // The peer half-closed: every frame it completed has been handed over; answer them, then close.
                closeOnceDrained(CloseReason.PEER);
            }
            // Else still flushing what is owed: the flush closes once it is written, seeing the input is shut.
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (closing) {
            // Backpressure paused reading; a closing connection reads on, to discard, or a peer blocked writing never reads.
            ctx.channel().config().setAutoRead(true);
        } else {
            handler.writabilityChanged(this);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (lingerTimer != null) {
            lingerTimer.cancel(false);
        }
        if (closeDeadline != null) {
            closeDeadline.cancel(false);
        }
        stats.publish();
        stats.counters().closed(stats.closeReason());
        endInput();
        handler.sessionClosed(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            // The decoder counted it, passed on the frames before the bad one and discards the rest: their replies,
            // including those the handler gives later, go out first.
            log.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
            endInput();
            closeOnceDrained(CloseReason.PROTOCOL_ERROR);
        } else if (cause instanceof IOException) {
            // A reset or a failed write: the connection is gone, nothing more can be delivered.
            log.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
            stats.closing(CloseReason.PEER);
            ctx.close();
        } else {
            log.warn("closing {}: unexpected failure", ctx.channel().remoteAddress(), cause);
            closeGracefully(CloseReason.ERROR);
        }
    }

    /**
     * A graceful stop, on the event loop: serve nothing new (frames still reach a handler that
     * {@linkplain FrameHandler#receivesWhileDraining receives while draining}, to finish its own calls), let the
     * handler finish the replies it owes, then close lingering. The server's shutdown timeout bounds the wait.
     */
    void drain() {
        if (closing || draining) {
            return;
        }
        draining = true;
        receiveWhileDraining = handler.receivesWhileDraining(this);
        if (!receiveWhileDraining) {
            decoder.discardInput();
            endInput();
        }
        closeOnceDrained(CloseReason.SHUTDOWN);
    }

    /**
     * Closes lingering once the handler owes no more replies ({@link FrameHandler#owesReplies}), looked at
     * again every few milliseconds: replies given later, from a timer or an executor, are not lost.
     */
    private void closeOnceDrained(CloseReason reason) {
        stats.closing(reason);
        if (pendingClose == null) {
            pendingClose = reason;
            closeWhenDrained();
        }
    }

    private void closeWhenDrained() {
        if (!ctx.channel().isOpen() || closing) {
            return;
        }
        if (handler.owesReplies(this)) {
            ctx.executor().schedule(this::closeWhenDrained, RicochetServer.DRAIN_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            closeGracefully(pendingClose);
        }
    }

    /**
     * Tells the handler, once, that no more frames will reach it: the peer ended its stream, or what it sends is
     * discarded from now on. A handler waiting for answers (an RPC end's own calls) fails them now: a close that
     * waited for them would wait for what cannot come.
     */
    private void endInput() {
        if (!inputEnded) {
            inputEnded = true;
            handler.inputEnded(this);
        }
    }

    /** Whether the handler still owes replies on a connection that is not closing: the idle timeout waits for them. */
    boolean owesReplies() {
        return !closing && ctx.channel().isActive() && handler.owesReplies(this);
    }

    /** The lingering close described on the class. Idempotent; the first reason given is the one counted. */
    private void closeGracefully(CloseReason reason) {
        stats.closing(reason);
        if (closing) {
            return;
        }
        closing = true;
        flushPending = false;
        writesUnflushed = 0;
        decoder.discardInput();
        endInput();
        // Keep reading, to discard: a peer blocked writing to us would never read our replies.
        ctx.channel().config().setAutoRead(true);
        if (maxCloseNanos > 0) {
            closeDeadline = ctx.executor().schedule(() -> {
                ctx.close();
            }, maxCloseNanos, TimeUnit.NANOSECONDS);
        }
        // An empty write completes after every earlier write has reached the socket.
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed -> {
            if (!flushed.isSuccess() || inputShutdown || !(ctx.channel() instanceof DuplexChannel duplex)) {
                ctx.close();
                return;
            }
            SslHandler tls = ctx.pipeline().get(SslHandler.class);
            // TLS ends with close_notify before the FIN, so the peer can tell the end from a truncation.
            ChannelFuture notified = tls == null ? ctx.newSucceededFuture() : tls.closeOutbound();
            notified.addListener(ignored -> duplex.shutdownOutput().addListener(shut -> {
                if (!shut.isSuccess()) {
                    ctx.close();
                } else if (ctx.channel().isOpen()) {
                    lingering = true;
                    lastInputNanos = ctx.executor().ticker().nanoTime();
                    lingerTimer = ctx.executor().schedule(this::lingerCheck, lingerNanos, TimeUnit.NANOSECONDS);
                }
            }));
        });
    }

    /** Closes once the peer has been quiet for the linger timeout; re-armed for the remainder otherwise. */
    private void lingerCheck() {
        long quiet = ctx.executor().ticker().nanoTime() - lastInputNanos;
        if (quiet >= lingerNanos) {
            ctx.close();
        } else if (ctx.channel().isOpen()) {
            lingerTimer = ctx.executor().schedule(this::lingerCheck, lingerNanos - quiet, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public ByteBuf allocateBody(int capacity) {
        return FrameHeader.allocateBody(ctx.alloc(), width, capacity);
    }

    @Override
    public ByteBufAllocator alloc() {
        return ctx.alloc();
    }

    @Override
    public EventLoop eventLoop() {
        return ctx.channel().eventLoop();
    }

    @Override
    public SocketAddress remoteAddress() {
        return ctx.channel().remoteAddress();
    }

    @Override
    public Protocol protocol() {
        return Protocol.TCP;
    }

    @Override
    public void close() {
        if (ctx.executor().inEventLoop()) {
            closeGracefully(CloseReason.PEER);
        } else {
            onLoop(() -> closeGracefully(CloseReason.PEER));
        }
    }

    /** Runs {@code task} on the connection's loop; a loop that has shut down took the connection with it. */
    private void onLoop(Runnable task) {
        try {
            ctx.executor().execute(task);
        } catch (RejectedExecutionException e) {
            log.debug("{}: event loop already shut down", ctx.channel().remoteAddress());
        }
    }

}
