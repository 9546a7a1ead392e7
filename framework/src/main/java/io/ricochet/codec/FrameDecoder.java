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
 * <p>While a frame is being handed downstream, the decoder vouches for that very buffer, still at the address it was
 * emitted at, so a {@link FrameEncoder} given this decoder may write the reply's length over the received one. The
 * read buffer is retained (once per read, not per frame) for as long as its frames are vouched for, so its memory
 * cannot be reused meanwhile: a buffer found at that address is a view of this read buffer, whatever the handler did
 * with the frame it was given (released it, and got the recycled object back as a slice of something else). Once the
 * handling returns, the frame is an ordinary buffer again.
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
    /** Whether an encoder frames replies in place through this decoder: only then is vouching worth its cost. */
    private boolean vouching;
    /** Whether each read's complete frames go downstream as one {@link FrameRun}, not one body each. */
    private boolean runs;
    /** The read buffer whose frames are being handed downstream, retained until the handing is over. */
    private ByteBuf pinned;
    /** The frame being handed downstream now, and where its index 0 is: an address, or an array and offset. */
    private ByteBuf inHand;
    private long inHandAddress;
    private byte[] inHandArray;
    private int inHandArrayOffset;

    public FrameDecoder(LengthField lengthField, int maxFrame, ConnectionStats stats) {
        this.width = lengthField.width();
        this.maxFrame = maxFrame;
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
        inHand = null;
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (runs) {
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
        if (vouching) {
            handingDown(in, frame);
        }
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

    /**
     * From now on each read's complete frames go downstream as one {@link FrameRun}: for a pipeline whose session
     * answers frames in place, and whose every handler between decoder and session passes messages on untouched.
     * Call before the first read.
     */
    public void emitRuns() {
        runs = true;
    }

    /**
     * Called by a {@link FrameEncoder} built with this decoder: from now on the frames handed downstream
     * are vouched for. A decoder whose frames are never answered in place (a client's) skips that work.
     */
    void vouchForFrames() {
        vouching = true;
    }

    private void handingDown(ByteBuf in, ByteBuf frame) {
        if (pinned != in) {
            if (pinned != null) {
                pinned.release();
            }
            pinned = in.retain();
        }
        inHand = frame;
        if (frame.hasMemoryAddress()) {
            inHandAddress = frame.memoryAddress();
            inHandArray = null;
        } else if (frame.hasArray()) {
            inHandAddress = 0;
            inHandArray = frame.array();
            inHandArrayOffset = frame.arrayOffset();
        } else {
            // No way to tell where it sits later (a composite read buffer): it is vouched for by nobody.
            inHand = null;
        }
    }

    /** Every frame handed out has been handled: none is vouched for any longer, and the read buffer is let go. */
    private void handedDown() {
        inHand = null;
        inHandArray = null;
        if (pinned != null) {
            ByteBuf buf = pinned;
            pinned = null;
            buf.release();
        }
    }

    /**
     * True if {@code body} is the frame this decoder is handing downstream right now: that very buffer, still a view
     * of the read buffer at the place it was cut from. Its {@code width} bytes at index 0 are then the received
     * length field, the framework's to overwrite. Called on the event loop, by {@link FrameEncoder}.
     */
    boolean isFrameInHand(ByteBuf body) {
        if (inHand == null || body != inHand) {
            return false;
        }
        if (inHandArray != null) {
            return body.hasArray() && body.array() == inHandArray && body.arrayOffset() == inHandArrayOffset;
        }
        return body.hasMemoryAddress() && body.memoryAddress() == inHandAddress;
    }

    /** Writes the reply's length over the received one if {@code body} {@linkplain #isFrameInHand is in hand}. */
    boolean prependInHeadroom(ByteBuf body) {
        if (isFrameInHand(body) && FrameHeader.writeInHeadroom(body, width)) {
            // Framed once: the frame now belongs to the outbound buffer.
            inHand = null;
            return true;
        }
        return false;
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
