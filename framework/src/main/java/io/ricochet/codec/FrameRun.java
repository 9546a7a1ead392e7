package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * Consecutive complete frames, length fields included, as one read brought them: what a {@link FrameDecoder} in
 * {@linkplain ReplyFraming#runs run mode} hands downstream, once per read, instead of one body per frame.
 * The holder owns {@link #content()}, a retained slice of the read buffer; {@link FrameEncoder} writes a run back
 * as it is, so a handler may rewrite the bodies in place (same lengths) and write the run as the replies.
 */
public final class FrameRun extends DefaultByteBufHolder {
    private final int count;

    FrameRun(ByteBuf frames, int count) {
        super(frames);
        this.count = count;
    }

    /** How many frames the run holds (at least one). */
    public int count() {
        return count;
    }

    /** A run of the first {@code frames} of this one, retaining the same memory: for replies cut short. */
    public FrameRun retainedPrefix(int frames, int bytes) {
        return new FrameRun(content().retainedSlice(content().readerIndex(), bytes), frames);
    }

    @Override
    public FrameRun replace(ByteBuf content) {
        return new FrameRun(content, count);
    }
}
