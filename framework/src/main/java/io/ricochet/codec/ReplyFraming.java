package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;

/**
 * How a connection's frames are cut and its replies framed: chosen by the pipeline's initializer and handed to its
 * {@link FrameDecoder} and its {@link FrameEncoder}, which never call each other. One of three ways:
 * <ul>
 * <li>{@link #runs}: the decoder hands each read's complete frames downstream as one {@link FrameRun}, which a session
 * rewrites in place and the encoder writes as it is: the fast path of a session that answers every frame in place;</li>
 * <li>{@link #perFrame}: one body per frame, and a reply's length is written over the received one when the reply is
 * the very frame being handed downstream, answered while it is handled (the echo path), or a body from
 * {@link FrameHeader#allocateBody}; any other body gets a header buffer of its own;</li>
 * <li>{@link #headroomOnly}: as {@code perFrame}, but only bodies from {@link FrameHeader#allocateBody} are framed in
 * place: for a peer that never answers what it receives (a client).</li>
 * </ul>
 *
 * <pre>{@code
 * ReplyFraming framing = ReplyFraming.perFrame(LengthField.TWO, 4094);
 * pipeline.addLast(new FrameDecoder(framing, stats), new FrameEncoder(framing, stats), session);
 * }</pre>
 *
 * <p>A {@code perFrame} framing holds its connection's frame in hand, so each connection needs one of its own; the
 * other two hold nothing, and one serves every connection of a listener.
 *
 * <p>While a frame is handed downstream under {@code perFrame}, this vouches for that very buffer, still at the
 * address it was cut at. The read buffer is retained (once per read, not per frame) for as long as its frames are
 * vouched for, so its memory cannot be reused meanwhile: a buffer found at that address is a view of this read
 * buffer, whatever the handler did with the frame it was given (released it, and got the recycled object back as a
 * slice of something else). Once the handling returns, the frame is an ordinary buffer again.
 */
public final class ReplyFraming {
    private enum Mode { RUNS, PER_FRAME, HEADROOM_ONLY }

    private final LengthField lengthField;
    private final int maxFrame;
    private final Mode mode;
    /** The read buffer whose frames are being handed downstream, retained until the handing is over. */
    private ByteBuf pinned;
    /** The frame being handed downstream now, and where its index 0 is: an address, or an array and offset. */
    private ByteBuf inHand;
    private long inHandAddress;
    private byte[] inHandArray;
    private int inHandArrayOffset;

    private ReplyFraming(LengthField lengthField, int maxFrame, Mode mode) {
        this.lengthField = Checks.notNull("lengthField", lengthField);
        this.maxFrame = Checks.inRange("maxFrame", maxFrame, 1, lengthField.largestMaxFrame());
        this.mode = mode;
    }

    /** Each read's frames as one {@link FrameRun}, answered in place as a whole. */
    public static ReplyFraming runs(LengthField lengthField, int maxFrame) {
        return new ReplyFraming(lengthField, maxFrame, Mode.RUNS);
    }

    /** One body per frame; a frame answered while it is handled is framed where it was received. */
    public static ReplyFraming perFrame(LengthField lengthField, int maxFrame) {
        return new ReplyFraming(lengthField, maxFrame, Mode.PER_FRAME);
    }

    /** One body per frame; only bodies from {@link FrameHeader#allocateBody} are framed in place. */
    public static ReplyFraming headroomOnly(LengthField lengthField, int maxFrame) {
        return new ReplyFraming(lengthField, maxFrame, Mode.HEADROOM_ONLY);
    }

    public LengthField lengthField() {
        return lengthField;
    }

    public int maxFrame() {
        return maxFrame;
    }

    /** Whether the decoder hands a read's frames downstream as one {@link FrameRun}. */
    public boolean emitsRuns() {
        return mode == Mode.RUNS;
    }

    /** The decoder is handing {@code frame}, cut from {@code in}, downstream. */
    void handingDown(ByteBuf in, ByteBuf frame) {
        if (mode != Mode.PER_FRAME) {
            return;
        }
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

    /** The frame handed out last has been handled: it is vouched for no longer. */
    void handled() {
        if (mode == Mode.PER_FRAME) {
            inHand = null;
        }
    }

    /** Every frame handed out has been handled: none is vouched for any longer, and the read buffer is let go. */
    void handedDown() {
        if (mode != Mode.PER_FRAME) {
            // Shared by a listener's connections, and holding nothing: never written.
            return;
        }
        inHand = null;
        inHandArray = null;
        if (pinned != null) {
            ByteBuf buf = pinned;
            pinned = null;
            buf.release();
        }
    }

    /**
     * Makes {@code body} a whole frame where it lies, writing its length in the bytes before its reader index, when
     * those are provably the framework's; false, changing nothing, otherwise. On the event loop, by the encoder.
     */
    boolean frameInPlace(ByteBuf body) {
        int width = lengthField.width();
        if (FrameHeader.prependInHeadroom(body, width)) {
            return true;
        }
        if (mode == Mode.PER_FRAME && isFrameInHand(body) && FrameHeader.writeInHeadroom(body, width)) {
            // Framed once: the frame now belongs to the outbound buffer.
            inHand = null;
            return true;
        }
        return false;
    }

    /**
     * True if {@code body} is the frame being handed downstream right now: that very buffer, still a view of the read
     * buffer at the place it was cut from. Its bytes at index 0 are then the received length field.
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
}
