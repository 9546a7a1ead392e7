package io.ricochet.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.DecoderException;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import java.io.IOException;
import java.net.SocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a TCP pipeline: hands each frame to the {@link FrameHandler}, is the connection's
 * {@link FrameSession}, flushes once per read batch, and decides how the connection ends.
 */
final class TcpSessionHandler extends ChannelInboundHandlerAdapter implements FrameSession {
    private static final Logger log = LoggerFactory.getLogger(TcpSessionHandler.class);

    private final FrameHandler handler;
    private final ConnectionStats stats;
    private final int width;
    private ChannelHandlerContext ctx;
    private boolean flushPending;
    private boolean inReadBatch;
    private Object attachment;

    TcpSessionHandler(FrameHandler handler, ConnectionStats stats, int width) {
        this.handler = handler;
        this.stats = stats;
        this.width = width;
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
        inReadBatch = true;
        try {
            handler.onFrame(this, (ByteBuf) msg);
        } catch (RuntimeException e) {
            log.warn("closing {}: frame handler failed", ctx.channel().remoteAddress(), e);
            stats.closing(CloseReason.ERROR);
            ctx.close();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inReadBatch = false;
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        } else {
            stats.publish();
        }
    }

    @Override
    public void reply(ByteBuf body) {
        if (!body.isReadable()) {
            body.release();
            throw new IllegalArgumentException("reply length: 0 (expected: > 0)");
        }
        if (ctx.executor().inEventLoop() && inReadBatch) {
            ctx.write(body, ctx.voidPromise());
            flushPending = true;
        } else {
            // Outside a read batch (a timer, another thread) nothing else will flush it.
            ctx.writeAndFlush(body, ctx.voidPromise());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            // The peer half-closed: every frame it completed has been handed over; answer them, then close.
            stats.closing(CloseReason.PEER);
            flushThenClose();
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stats.publish();
        stats.meters().closed(stats.closeReason());
        handler.sessionClosed(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            // The decoder counted it and passed on the frames before the bad one; their replies go out first.
            log.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
            stats.closing(CloseReason.PROTOCOL_ERROR);
            flushThenClose();
        } else if (cause instanceof IOException) {
            log.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
            stats.closing(CloseReason.PEER);
            ctx.close();
        } else {
            log.warn("closing {}: unexpected failure", ctx.channel().remoteAddress(), cause);
            stats.closing(CloseReason.ERROR);
            ctx.close();
        }
    }

    /** Stops reading, flushes what is owed, then closes; run on the event loop by a graceful shutdown. */
    void shutdown() {
        stats.closing(CloseReason.SHUTDOWN);
        flushThenClose();
    }

    private void flushThenClose() {
        ctx.channel().config().setAutoRead(false);
        flushPending = false;
        // An empty write completes after every earlier write has reached the socket.
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public ByteBuf allocateBody(int capacity) {
        ByteBuf buf = ctx.alloc().ioBuffer(width + capacity);
        buf.writerIndex(width).readerIndex(width);
        return buf;
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
            flushThenClose();
        } else {
            ctx.executor().execute(this::flushThenClose);
        }
    }

    @Override
    public void attach(Object attachment) {
        this.attachment = attachment;
    }

    @Override
    public Object attachment() {
        return attachment;
    }
}
