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
 * and the field's bytes stay as headroom for the reply.
 *
 * <p>How frames are handed downstream, one body each or a read's as one {@link FrameRun}, and which of them a reply may
 * be framed over, is its {@link ReplyFraming}'s, shared with the connection's encoder.
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
    private final ReplyFraming framing;
    private boolean failed;

    /** A decoder of one body per frame, none vouched for: a peer's that frames in place only its own bodies. */
    public FrameDecoder(LengthField lengthField, int maxFrame, ConnectionStats stats) {
        this(ReplyFraming.headroomOnly(lengthField, maxFrame), stats);
    }

    /** A decoder that cuts frames as {@code framing} says, the connection's encoder given the same one. */
    public FrameDecoder(ReplyFraming framing, ConnectionStats stats) {
        this.framing = framing;
        this.width = framing.lengthField().width();
        this.maxFrame = framing.maxFrame();
        this.stats = stats;
        setCumulator(SharedSafeCumulator.INSTANCE);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf buf) {
            stats.bytesRead(buf.readableBytes());
        }
        try {
            super.channelRead(ctx, msg);
        } finally {
            handedDown();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        try {
            // Frames completed before the end of stream are handed downstream from here.
            super.channelInactive(ctx);
        } finally {
            handedDown();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        try {
            // As for channelInactive, on a half-close.
            super.userEventTriggered(ctx, evt);
        } finally {
            handedDown();
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        handedDown();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        // The frame emitted by the previous call has been handed downstream and handled.
        framing.handled();
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (framing.emitsRuns()) {
            decodeRun(in, out);
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
        framing.handingDown(in, frame);
        out.add(frame);
    }

    /**
     * Every complete frame in {@code in} as one {@link FrameRun}. A bad length fails as soon as its field is
     * readable, after the run of the good frames before it has gone downstream.
     */
    private void decodeRun(ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int at = start;
        int count = 0;
        long badLength = -1;
        while (end - at >= width) {
            long length = FrameHeader.getLength(in, at, width);
            if (length == 0 || length > maxFrame) {
                badLength = length;
                break;
            }
            if (end - at - width < length) {
                break;
            }
            at += width + (int) length;
            count++;
        }
        if (count > 0) {
            out.add(new FrameRun(in.retainedSlice(start, at - start), count));
            in.readerIndex(at);
            stats.framesRead(count);
        }
        if (badLength == 0) {
            throw fail(in, ProtocolErrorKind.EMPTY, new EmptyFrameException(maxFrame));
        }
        if (badLength > 0) {
            throw fail(in, ProtocolErrorKind.TOO_LONG, new FrameTooLongException(badLength, maxFrame));
        }
    }

    /** Every frame handed out has been handled: none is vouched for any longer, and the read buffer is let go. */
    private void handedDown() {
        framing.handedDown();
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
