package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Compares a reply with expected bytes where the reply lies, without copying it, and says how they differ. The
 * comparison allocates nothing below {@value #NIO_MIN} bytes and one NIO view above (it pays for itself, as in
 * {@link Payload#verifyReversed}).
 */
final class SameBytes {
    private static final int NIO_MIN = 1024;
    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private SameBytes() {
    }

    /** Whether {@code reply}'s readable bytes are exactly {@code expected[0, length)}. */
    static boolean equal(ByteBuf reply, byte[] expected, int length) {
        if (reply.readableBytes() != length) {
            return false;
        }
        int index = reply.readerIndex();
        if (reply.hasArray()) {
            int at = reply.arrayOffset() + index;
            return Arrays.equals(reply.array(), at, at + length, expected, 0, length);
        }
        if (length >= NIO_MIN && reply.nioBufferCount() == 1) {
            return equal(reply.nioBuffer(index, length).order(ByteOrder.BIG_ENDIAN), expected, length);
        }
        int full = length & ~7;
        for (int i = 0; i < full; i += 8) {
            if (reply.getLong(index + i) != (long) BIG_ENDIAN_LONG.get(expected, i)) {
                return false;
            }
        }
        for (int i = full; i < length; i++) {
            if (reply.getByte(index + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Whether {@code reply}'s readable bytes are exactly {@code sent[0, length)} reversed, compared eight at a time
     * where they lie: bytes {@code 8k..8k+7} of what was sent, read little-endian, are the reply's eight ending at
     * {@code length - 8k}, read big-endian.
     */
    static boolean equalReversed(ByteBuf reply, byte[] sent, int length) {
        if (reply.readableBytes() != length) {
            return false;
        }
        int end = reply.readerIndex() + length;
        int full = length & ~7;
        for (int k = 0; k < full; k += 8) {
            if (reply.getLong(end - 8 - k) != (long) LITTLE_ENDIAN_LONG.get(sent, k)) {
                return false;
            }
        }
        for (int i = full; i < length; i++) {
            if (reply.getByte(end - 1 - i) != sent[i]) {
                return false;
            }
        }
        return true;
    }

    /** The same on a big-endian NIO view; ByteBuf and ByteBuffer share no interface. */
    private static boolean equal(ByteBuffer reply, byte[] expected, int length) {
        int at = reply.position();
        int full = length & ~7;
        for (int i = 0; i < full; i += 8) {
            if (reply.getLong(at + i) != (long) BIG_ENDIAN_LONG.get(expected, i)) {
                return false;
            }
        }
        for (int i = full; i < length; i++) {
            if (reply.get(at + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Why {@code reply} is not {@code expected[0, length)}, after {@code prefix}: {@code expected "value 17" (8 bytes),
     * got "missing" (7 bytes)}. When a quote would not show the first difference, both start a little before it, and
     * the reason ends with {@code , first difference at byte N}.
     */
    static String reason(String prefix, byte[] expected, int length, ByteBuf reply) {
        int got = reply.readableBytes();
        int difference = firstDifference(expected, length, reply);
        // Quote from a little before the difference when a quote from the start might not reach it.
        int from = difference > Excerpt.MAX_CHARS / 2 ? difference - Excerpt.MAX_CHARS / 4 : 0;
        StringBuilder out = new StringBuilder(prefix).append("expected ");
        boolean shown = shows(Excerpt.quote(out, expected, length, from), from, length, difference);
        out.append(" (").append(length).append(" bytes), got ");
        shown &= shows(Excerpt.quote(out, reply, from), from, got, difference);
        out.append(" (").append(got).append(" bytes)");
        if (from > 0 || !shown) {
            out.append(", first difference at byte ").append(difference);
        }
        return out.toString();
    }

    /**
     * Whether a quote of {@code shown} bytes from {@code from} of a message of {@code total} shows where it first
     * differs: the byte at {@code difference}, or the message's end when that is where it differs.
     */
    private static boolean shows(int shown, int from, int total, int difference) {
        return difference < from + shown || from + shown == total;
    }

    /** The first offset at which they differ, the shorter's length if it is a prefix of the other, or -1. */
    static int firstDifference(byte[] expected, int length, ByteBuf reply) {
        int n = Math.min(length, reply.readableBytes());
        int index = reply.readerIndex();
        for (int i = 0; i < n; i++) {
            if (reply.getByte(index + i) != expected[i]) {
                return i;
            }
        }
        return length == reply.readableBytes() ? -1 : n;
    }
}
