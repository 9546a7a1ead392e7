package io.ricochet.metrics;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Ends a connection after its last answer without losing that answer (nginx's lingering close): shuts the
 * output so the client reads the answer and then EOF, discards whatever the client still sends, and closes
 * once the client closes or {@link #LINGER} has passed. Closing at once with unread input would make the
 * kernel send a reset, which can destroy the answer before the client reads it. Installed first in the
 * pipeline, so no further request reaches the codec. Stateless: one instance serves every channel.
 */
@Sharable
final class LingeringCloseHandler extends ChannelInboundHandlerAdapter {
    static final Duration LINGER = Duration.ofSeconds(2);

    private static final LingeringCloseHandler INSTANCE = new LingeringCloseHandler();

    /** Starts the lingering close once the answer is written; closes at once if the write failed. */
    static final ChannelFutureListener AFTER_WRITE = future -> {
        if (future.isSuccess()) {
            start(future.channel());
        } else {
            future.channel().close();
        }
    };

    private LingeringCloseHandler() {
    }

    static void start(Channel channel) {
        if (!(channel instanceof DuplexChannel duplex) || !channel.isActive()) {
            channel.close();
            return;
        }
        Future<?> deadline = channel.eventLoop().schedule(() -> channel.close(), LINGER.toNanos(),
                TimeUnit.NANOSECONDS);
        channel.closeFuture().addListener(closed -> deadline.cancel(false));
        channel.pipeline().addFirst(INSTANCE);
        duplex.shutdownOutput().addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // autoRead is off on these channels; read from here so the read never reaches the flow control
        // handler behind us, which would hand the next pipelined request to the HTTP handler.
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.read();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset while lingering: the answer was already written; nothing is owed.
        ctx.close();
    }
}
