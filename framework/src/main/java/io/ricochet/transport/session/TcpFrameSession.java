package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.FrameHeader;
import io.ricochet.codec.FrameRun;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.transport.Protocol;
import java.net.SocketAddress;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP connection as its {@link FrameHandler} sees it: sends, with the flush policy (once per read batch, or soon
 * after a send made outside one), the count of frames still unanswered, and whether it still serves: once closing or
 * draining, frames and replies are dropped. Closing is {@link LingeringClose}'s; when to close,
 * {@link TcpSessionHandler}'s, which tells this session what the pipeline sees.
 *
 * <p>About 340 lines: the send path with its flush policy and the draining and closing states share the session's
 * fields on one event loop, and are kept together.
 */
final class TcpFrameSession implements FrameSession {
    private static final Logger log = LoggerFactory.getLogger(TcpFrameSession.class);
    /** Sends outside a read batch are flushed at least every this many writes when made back to back. */
    private static final int FLUSH_BATCH = 64;

    private final FrameHandler handler;
    private final ConnectionStats stats;
    private final int width;
    private final FrameDecoder decoder;
    private final LingerTimeouts lingerTimeouts;
    private ChannelHandlerContext ctx;
    private boolean flushPending;
    private boolean inReadBatch;
    /** Writes made outside a read batch and not yet flushed, and whether a task to flush them is queued. */
    private int writesUnflushed;
    private boolean flushQueued;
    /** The task that flushes them, made the first time one is queued: an idle connection holds none. */
    private Runnable queuedFlush;
    /** The close under way, made when it begins (an idle connection holds none); null while the session serves. */
    private LingeringClose closing;
    /** A graceful stop is under way; frames reach the handler only if it asked to receive them while draining. */
    private volatile boolean draining;
    private boolean receiveWhileDraining;
    private long framesHandedOver;
    private long framesSent;
    /** The handler was told no more frames will reach it ({@link FrameHandler#inputEnded}). */
    private boolean inputEnded;

    /** @param decoder the pipeline's decoder, told to discard input once the connection is closing */
    TcpFrameSession(FrameHandler handler, ConnectionStats stats, int width, FrameDecoder decoder,
            LingerTimeouts lingerTimeouts) {
        this.handler = handler;
        this.stats = stats;
        this.width = width;
        this.decoder = decoder;
        this.lingerTimeouts = lingerTimeouts;
    }

    /** The session handler's context, given once it is in the pipeline. */
    void bind(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    ConnectionStats stats() {
        return stats;
    }

    /** How many bytes wide the connection's length fields are. */
    int width() {
        return width;
    }

    /** Whether a frame decoded now is not served: the session is closing, or draining and not receiving. */
    boolean refuses() {
        return closing != null || draining && !receiveWhileDraining;
    }

    /** A frame is about to reach {@link FrameHandler#onFrame}: sends from now to the batch's end wait for its flush. */
    void handingOver() {
        inReadBatch = true;
        framesHandedOver++;
    }

    /** {@code frames} frames taken and answered at once by {@code replies}, flushed at the read batch's end. */
    void answered(FrameRun replies, int frames) {
        framesHandedOver += frames;
        framesSent += frames;
        ctx.write(replies, ctx.voidPromise());
        flushPending = true;
    }

    /** A run's first {@code frames} frames answered by {@code replies} (none if null), before a close. */
    void answeredBeforeFailure(FrameRun replies, int frames) {
        framesHandedOver += frames;
        framesSent += frames;
        if (replies != null) {
            ctx.write(replies, ctx.voidPromise());
        }
    }

    /** The read batch ended: its replies go out in one flush. */
    void readComplete() {
        inReadBatch = false;
        if (closing != null) {
            // Input discarded while lingering: the peer is still there.
            closing.inputSeen();
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

    boolean isClosing() {
        return closing != null;
    }

    /** Whether the output is shut and the peer's input is being discarded: its end of stream leaves nothing to lose. */
    boolean isLingering() {
        return closing != null && closing.isLingering();
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
        if (closing != null) {
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
                if (queuedFlush == null) {
                    queuedFlush = this::queuedFlush;
                }
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
    public void shed() {
        if (ctx.executor().inEventLoop()) {
            stats.closing(CloseReason.LIMIT);
            ctx.close();
        } else {
            onLoop(this::shed);
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

    /**
     * A graceful stop begins: frames reach the handler from now on only if it {@linkplain
     * FrameHandler#receivesWhileDraining receives while draining}, which is returned. Once per connection.
     */
    boolean startDraining() {
        draining = true;
        receiveWhileDraining = handler.receivesWhileDraining(this);
        return receiveWhileDraining;
    }

    /**
     * Tells the handler, once, that no more frames will reach it: the peer ended its stream, or what it sends is
     * discarded from now on. A handler waiting for answers (an RPC end's own calls) fails them now: a close that
     * waited for them would wait for what cannot come.
     */
    void endInput() {
        if (!inputEnded) {
            inputEnded = true;
            handler.inputEnded(this);
        }
    }

    /** Whether the handler still owes replies on a connection that is not closing: the idle timeout waits for them. */
    boolean owesReplies() {
        return closing == null && ctx.channel().isActive() && handler.owesReplies(this);
    }

    /**
     * Serves nothing more and closes lingering ({@link LingeringClose}). Idempotent; the first reason given is the one
     * counted.
     */
    void closeGracefully(CloseReason reason) {
        stats.closing(reason);
        if (closing != null) {
            return;
        }
        // Closing from here on, before the handler hears the input end: what it sends or closes then is refused.
        closing = new LingeringClose(lingerTimeouts, ctx);
        flushPending = false;
        writesUnflushed = 0;
        discardInput();
        closing.begin();
    }

    /** What the peer sends from now on is read and discarded, and the handler is told no more frames will come. */
    void discardInput() {
        decoder.discardInput();
        endInput();
    }

    /**
     * The channel has closed: a lingering close's timers have nothing left to do, the connection's counts are
     * published, and the handler is told that no more frames will come.
     */
    void closed() {
        if (closing != null) {
            closing.closed();
        }
        stats.publish();
        stats.counters().closed(stats.closeReason());
        endInput();
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
