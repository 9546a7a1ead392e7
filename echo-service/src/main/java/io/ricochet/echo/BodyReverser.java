package io.ricochet.echo;

import io.netty.buffer.ByteBuf;

/** Reverses the readable bytes of a buffer in place: eight bytes at a time from both ends, then the middle bytewise. */
public final class BodyReverser {
    private BodyReverser() {
    }

    public static void reverseInPlace(ByteBuf buf) {
        reverseInPlace(buf, buf.readerIndex(), buf.readableBytes());
    }

    /** Reverses {@code buf[index, index + length)} in place. */
    public static void reverseInPlace(ByteBuf buf, int index, int length) {
        int left = index;
        int right = index + length - 8;
        // Swap whole longs from both ends while they do not overlap; Long.reverseBytes reverses within each.
        while (right - left >= 8) {
            long l = buf.getLong(left);
            long r = buf.getLong(right);
            buf.setLong(left, Long.reverseBytes(r));
            buf.setLong(right, Long.reverseBytes(l));
            left += 8;
            right -= 8;
        }
        swapBytes(buf, left, right + 7);
    }

    /** The plain byte loop, kept as the baseline the word-wise version is measured against. */
    public static void reverseBytewise(ByteBuf buf) {
        swapBytes(buf, buf.readerIndex(), buf.writerIndex() - 1);
    }

    /** Reverses {@code buf[left, right]} (both included) a byte at a time. */
    private static void swapBytes(ByteBuf buf, int left, int right) {
        while (left < right) {
            byte a = buf.getByte(left);
            buf.setByte(left, buf.getByte(right));
            buf.setByte(right, a);
            left++;
            right--;
        }
    }
}
