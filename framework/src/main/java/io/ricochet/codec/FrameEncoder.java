package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.EncoderException;
import io.ricochet.config.LengthField;
import io.ricochet.metrics.ConnectionStats;

/**
 * Writes each outbound body (1..maxFrame bytes) as one frame. The length is written in place, and the body goes
 * out as one buffer copying nothing, only when the bytes before its reader index are provably the framework's:
 * <ul>
 * <li>the frame the pipeline's {@link FrameDecoder} is handing downstream right now, answered while it is being
 * handled (the echo path: reversed in place, written back as received), or</li>
 * <li>a buffer from {@link FrameHeader#allocateBody}, as it was returned.</li>
 * </ul>
 * Any other body, whatever its reader index, is written untouched after a small pooled header buffer: a caller's
 * own buffer, a duplicate, slice, composite or read-only view, or a received body answered after its handling
 * returned (from a timer or another thread). A {@link FrameRun} is written as it is. Counts what it writes and
 * publishes the counts on flush, once per batch.
 */
public final class FrameEncoder extends ChannelOutboundHandlerAdapter {
    private final int width;
    private final int maxFrame;
    private final ConnectionStats stats;
    private final FrameDecoder decoder;

    /** An encoder that frames in place only bodies from {@link FrameHeader#allocateBody}. */
    public FrameEncoder(LengthField lengthField, int maxFrame, ConnectionStats stats) {
        this(lengthField, maxFrame, stats, null);
    }

    /**
     * @param decoder the same pipeline's decoder, whose frames answered while it hands them downstream are framed
     *                in place; null for none
     */
    public FrameEncoder(LengthField lengthField, int maxFrame, ConnectionStats stats, FrameDecoder decoder) {
        this.width = lengthField.width();
        this.maxFrame = maxFrame;
        this.stats = stats;
        this.decoder = decoder;
        if (decoder != null) {
            decoder.vouchForFrames();
        }
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
        if (FrameHeader.prependInHeadroom(body, width) || decoder != null && decoder.prependInHeadroom(body)) {
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
