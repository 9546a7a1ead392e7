package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.EncoderException;
import io.ricochet.config.LengthField;
import io.ricochet.metrics.ConnectionStats;

/**
 * Writes each outbound body (1..maxFrame bytes) as one frame. The body goes out as one buffer copying nothing, its
 * length written in place, when the connection's {@link ReplyFraming} vouches for the bytes before its reader index;
 * any other body, whatever its reader index, is written untouched after a small pooled header buffer. A
 * {@link FrameRun} is written as it is. Counts what it writes and publishes the counts on flush, once per batch.
 */
public final class FrameEncoder extends ChannelOutboundHandlerAdapter {
    private final int width;
    private final int maxFrame;
    private final ConnectionStats stats;
    private final ReplyFraming framing;

    /** An encoder that frames in place only bodies from {@link FrameHeader#allocateBody}. */
    public FrameEncoder(LengthField lengthField, int maxFrame, ConnectionStats stats) {
        this(ReplyFraming.headroomOnly(lengthField, maxFrame), stats);
    }

    /** An encoder that frames in place what {@code framing}, the connection's decoder's too, vouches for. */
    public FrameEncoder(ReplyFraming framing, ConnectionStats stats) {
        this.framing = framing;
        this.width = framing.lengthField().width();
        this.maxFrame = framing.maxFrame();
        this.stats = stats;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof FrameRun run) {
            // Whole frames already, validated as received and rewritten in place at the same lengths.
            ByteBuf frames = run.content();
            stats.framesWritten(run.count(), frames.readableBytes());
            ctx.write(frames, promise);
            return;
        }
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
        if (framing.frameInPlace(body)) {
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
