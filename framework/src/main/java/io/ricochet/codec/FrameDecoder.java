package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.ricochet.config.LengthField;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.ProtocolErrorKind;
import java.util.List;

/**
 * Splits a TCP stream into frames. Each frame is emitted as a retained slice of the read buffer that
 * spans length field and body, with its reader index past the field: the handler sees only the body,
 * and the field's bytes stay as headroom for the reply (see {@link FrameHeader#prependInHeadroom}).
 *
 * <p>A length of 0 or above the max frame fails at once, without waiting for a body: the bad bytes and
 * everything after them are discarded, the frames decoded before it still go downstream, and a
 * {@link DecoderException} follows. A partial frame left at end of stream is counted as truncated.
 * After a failure or {@link #discardInput()} every later byte is discarded.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private final int width;
    private final int maxFrame;
    private final ConnectionStats stats;
    private boolean failed;

    public FrameDecoder(LengthField lengthField, int maxFrame, ConnectionStats stats) {
        this.width = lengthField.width();
        this.maxFrame = maxFrame;
        this.stats = stats;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf buf) {
            stats.bytesRead(buf.readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < width) {
            return;
        }
        int start = in.readerIndex();
        long length = FrameHeader.getLength(in, start, width);
        if (length == 0) {
            throw fail(in, ProtocolErrorKind.EMPTY, new EmptyFrameException(maxFrame));
        }
        if (length > maxFrame) {
            throw fail(in, ProtocolErrorKind.TOO_LONG, new FrameTooLongException(length, maxFrame));
        }
        int frameLength = width + (int) length;
        if (in.readableBytes() < frameLength) {
            return;
        }
        ByteBuf frame = in.retainedSlice(start, frameLength);
        frame.readerIndex(width);
        in.skipBytes(frameLength);
        stats.frameRead();
        out.add(frame);
    }

    /**
     * Decodes nothing more: every byte from now on is counted as read and discarded. A connection that
     * is closing calls this so input that arrives while it lingers is never served.
     */
    public void discardInput() {
        failed = true;
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        // Complete frames were decoded before this call; what is left is the start of a frame that never finished.
        if (in.isReadable()) {
            if (!failed) {
                stats.protocolError(ProtocolErrorKind.TRUNCATED);
            }
            in.skipBytes(in.readableBytes());
        }
    }

    private DecoderException fail(ByteBuf in, ProtocolErrorKind kind, DecoderException cause) {
        failed = true;
        in.skipBytes(in.readableBytes());
        stats.protocolError(kind);
        stats.closing(CloseReason.PROTOCOL_ERROR);
        return cause;
    }
}
