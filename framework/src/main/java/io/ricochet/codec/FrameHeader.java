package io.ricochet.codec;

import io.netty.buffer.ByteBuf;

/** Reads and writes the unsigned big-endian length field without moving indices. */
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
     * Turns {@code body} into a whole frame without copying when the {@code width} bytes before its
     * reader index are headroom (as in every body {@link FrameDecoder} emits): the length is written
     * there and the reader index moved back. Returns false, changing nothing, when there is no headroom.
     */
    public static boolean prependInHeadroom(ByteBuf body, int width) {
        int readerIndex = body.readerIndex();
        if (readerIndex != width) {
            return false;
        }
        setLength(body, 0, width, body.readableBytes());
        body.readerIndex(0);
        return true;
    }
}
