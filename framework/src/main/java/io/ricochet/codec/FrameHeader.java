package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.ricochet.config.Checks;

/**
 * Reads and writes the unsigned big-endian length field, and frames bodies that carry their own headroom.
 *
 * <p>The length is written in place, in the {@code width} bytes before a body's reader index, only when those bytes
 * are provably the framework's: the body is a buffer from {@link #allocateBody} itself, or the frame a
 * {@link FrameDecoder} is handing downstream right now (see {@link FrameEncoder}). A reader index that happens to
 * equal the width proves nothing: a caller's buffer, a partly read one, a duplicate, slice, composite or read-only
 * view would have its own bytes overwritten. Every other body is framed without being written to.
 */
public final class FrameHeader {
    private FrameHeader() {
    }

    public static long getLength(ByteBuf buf, int index, int width) {
        return width == 2 ? buf.getUnsignedShort(index) : buf.getUnsignedInt(index);
    }

    public static void setLength(ByteBuf buf, int index, int width, int length) {
        if (width == 2) {
            buf.setShort(index, length);
        } else {
            buf.setInt(index, length);
        }
    }

    /**
     * A pooled I/O buffer for a body of {@code capacity} bytes (it grows as any buffer does), with {@code width}
     * bytes of headroom before its reader index, so that {@link #prependInHeadroom} can frame it without a copy.
     * Only the buffer returned is framed in place: a duplicate, slice or read-only view of it is not.
     */
    public static ByteBuf allocateBody(ByteBufAllocator alloc, int width, int capacity) {
        if (width != 2 && width != 4) {
            throw new IllegalArgumentException("width: " + width + " (expected: 2 or 4)");
        }
        Checks.inRange("capacity", capacity, 0, Integer.MAX_VALUE - width);
        ByteBuf buf = alloc.ioBuffer(width + capacity);
        buf.writerIndex(width).readerIndex(width);
        return new HeadroomBody(buf);
    }

    /**
     * Turns {@code body} into a whole frame without copying when it is a buffer from {@link #allocateBody} (that very
     * buffer, not a view of it) whose reader index is still at {@code width}: the length is written into the headroom
     * and the reader index moved back over it. Returns false, changing nothing, for any other buffer.
     */
    public static boolean prependInHeadroom(ByteBuf body, int width) {
        return body instanceof HeadroomBody && writeInHeadroom(body, width);
    }

    /**
     * Writes the length into the {@code width} bytes before the reader index, which the caller has established are
     * the framework's own, and moves the reader index back over them. False, changing nothing, unless the reader
     * index is exactly {@code width} and the buffer is writable.
     */
    static boolean writeInHeadroom(ByteBuf body, int width) {
        if (body.readerIndex() != width || body.isReadOnly()) {
            return false;
        }
        setLength(body, 0, width, body.readableBytes());
        body.readerIndex(0);
        return true;
    }
}
