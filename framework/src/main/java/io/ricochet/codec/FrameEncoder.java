package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.EncoderException;
import io.ricochet.config.LengthField;
import io.ricochet.metrics.ConnectionStats;

/**
 * Writes each outbound body (1..maxFrame bytes) as one frame. A body with headroom (a received body being answered in
 * place) gets its length written into that headroom and goes out as one buffer, copying nothing;
 * any other body is preceded by a small pooled header buffer. Counts what it writes and publishes the
 * counts on flush, once per batch.
 */
public final class FrameEncoder extends ChannelOutboundHandlerAdapter {
    private final int width;
    private final int maxFrame;
    private final ConnectionStats stats;

    public FrameEncoder(LengthField lengthField, int maxFrame, ConnectionStats stats) {
        this.width = lengthField.width();
        this.maxFrame = maxFrame;
        this.stats = stats;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf body)) {
            ctx.write(msg, promise);
            return;
        }
        int length = body.readableBytes();
        if (length == 0) {
            // An empty buffer is not a frame but a marker whose promise completes after all earlier writes.
            ctx.write(body, promise);
            return;
        }
        if (length > maxFrame) {
            body.release();
            promise.setFailure(new EncoderException("reply length: " + length + " (expected: 1.." + maxFrame + ")"));
            return;
        }
        stats.frameWritten(width + length);
        if (FrameHeader.prependInHeadroom(body, width)) {
            ctx.write(body, promise);
            return;
        }
        ByteBuf header = ctx.alloc().ioBuffer(width);
        FrameHeader.setLength(header, 0, width, length);
        header.writerIndex(width);
        ctx.write(header);
        ctx.write(body, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        stats.publish();
        ctx.flush();
    }
}
