package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.engine.Mixing;
import io.ricochet.codec.FrameHeader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Request bodies derived from (seed, connection, sequence), so a reply is verified by regenerating the
 * body instead of keeping a copy. Body byte {@code j} is byte {@code j % 8} (little-endian) of
 * {@code word(base, j / 8) = base + (j / 8) * 0x9E3779B97F4A7C15}; the reply must hold the same bytes in reverse
 * order. {@code base} is a SplitMix64 hash of (seed, connection, sequence), so the bodies of two requests are
 * unrelated, and the words of one body are all distinct (the step is odd): an add per eight bytes, not a hash.
 * {@link #verifyEcho} checks a reply that holds the body as it was sent.
 *
 * <pre>{@code
 * Payload payload = new Payload(seed, 64, 64);
 * long base = payload.base(request.connection(), request.sequence());
 * Payload.write(body, base, payload.size(base));              // in request()
 * boolean ok = Payload.verifyReversed(reply, base, payload.size(base)); // in check(), same base
 * }</pre>
 *
 * @param seed the run's seed: the same seed, connection and sequence make the same body
 * @param minSize the smallest body, from 1
 * @param maxSize the largest body, from {@code minSize}
 */
public record Payload(long seed, int minSize, int maxSize) {
    private static final int NIO_VERIFY_MIN = 1024;

    /** Bodies of {@code minSize} to {@code maxSize} bytes, both from 1; a frame is never empty. */
    public Payload {
        if (minSize < 1) {
            throw new IllegalArgumentException("minSize: " + minSize + " (expected: >= 1)");
        }
        if (maxSize < minSize) {
            throw new IllegalArgumentException("maxSize: " + maxSize + " (expected: >= minSize, " + minSize + ")");
        }
    }

    /** SplitMix64's finalizer: a cheap, well-mixed 64-bit hash. */
    static long mix(long z) {
        return Mixing.mix(z);
    }

    /** Word {@code k} of the body whose {@link #base} is {@code base}: a Weyl sequence from the base. */
    static long word(long base, int k) {
        return base + k * 0x9E3779B97F4A7C15L;
    }

    /** The base of request {@code sequence} of connection {@code connection} ({@code Context.connection()}). */
    public long base(long connection, long sequence) {
        return mix(seed ^ mix(connection * 0x9E3779B97F4A7C15L + sequence));
    }

    /** The body size of the request whose {@link #base} is {@code base}, uniform in min..max. */
    public int size(long base) {
        if (minSize == maxSize) {
            return minSize;
        }
        long span = (long) maxSize - minSize + 1;
        return minSize + (int) Math.floorMod(mix(base + 0x5bd1e995L), span);
    }

    /**
     * Appends the body of length {@code size} derived from {@code base}. Goes through one NIO view of
     * the buffer rather than a ByteBuf call per word: fewer bounds checks, and one leak-detector record
     * per request instead of one per eight bytes.
     */
    public static void write(ByteBuf out, long base, int size) {
        out.ensureWritable(size);
        if (out.nioBufferCount() == 1) {
            int start = out.writerIndex();
            // The buffer's own view, written at absolute positions: a slice per frame to set its byte order was 4%
            // of the generator's I/O thread. The words go little-endian whatever the view's order.
            ByteBuffer view = out.internalNioBuffer(start, size);
            int at = view.position();
            boolean swap = view.order() != ByteOrder.LITTLE_ENDIAN;
            int full = size >>> 3;
            for (int k = 0; k < full; k++) {
                long w = word(base, k);
                view.putLong(at + 8 * k, swap ? Long.reverseBytes(w) : w);
            }
            int rest = size & 7;
            if (rest != 0) {
                long v = word(base, full);
                for (int i = 0; i < rest; i++) {
                    view.put(at + 8 * full + i, (byte) (v >>> (8 * i)));
                }
            }
            out.writerIndex(start + size);
            return;
        }
        int full = size >>> 3;
        for (int k = 0; k < full; k++) {
            out.writeLongLE(word(base, k));
        }
        int rest = size & 7;
        if (rest != 0) {
            long v = word(base, full);
            for (int i = 0; i < rest; i++) {
                out.writeByte((int) (v >>> (8 * i)));
            }
        }
    }

    /** One body of {@code size} bytes derived from {@code seed} alone: udp-stream sends it in every datagram. */
    public static byte[] body(long seed, int size) {
        ByteBuf tmp = io.netty.buffer.Unpooled.buffer(size);
        try {
            write(tmp, mix(seed), size);
            byte[] body = new byte[size];
            tmp.readBytes(body);
            return body;
        } finally {
            tmp.release();
        }
    }

    /** Appends one request frame: the length field of {@code width} bytes, then the body of {@code base} and {@code size}. */
    public static void appendFrame(ByteBuf out, int width, long base, int size) {
        int start = out.writerIndex();
        out.ensureWritable(width + size);
        FrameHeader.setLength(out, start, width, size);
        out.writerIndex(start + width);
        write(out, base, size);
    }

    /** True if {@code reply}'s readable bytes are exactly the body of {@code base} and {@code size}, reversed. */
    public static boolean verifyReversed(ByteBuf reply, long base, int size) {
        return verifyReversed(reply, reply.readerIndex(), reply.readableBytes(), base, size);
    }

    /**
     * True if {@code buf[index, index + length)} is exactly the body of {@code base} and {@code size}, reversed: for a
     * reply checked where it lies in a read buffer.
     */
    public static boolean verifyReversed(ByteBuf buf, int index, int length, long base, int size) {
        if (length != size) {
            return false;
        }
        // Large bodies check through one NIO view (its allocation pays for itself); small ones word by word.
        if (size >= NIO_VERIFY_MIN && buf.nioBufferCount() == 1) {
            return verifyReversed(buf.nioBuffer(index, size).order(ByteOrder.BIG_ENDIAN), base, size);
        }
        int end = index + size;
        int full = size >>> 3;
        // Body bytes 8k..8k+7 sit reversed at end-8-8k..end-1-8k; read big-endian they equal the LE block.
        for (int k = 0; k < full; k++) {
            if (buf.getLong(end - 8 - 8 * k) != word(base, k)) {
                return false;
            }
        }
        int rest = size & 7;
        if (rest != 0) {
            long v = word(base, full);
            for (int i = 0; i < rest; i++) {
                int j = 8 * full + i;
                if (buf.getByte(end - 1 - j) != (byte) (v >>> (8 * i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The same check on a NIO view; ByteBuf and ByteBuffer share no interface, and a lambda per word would cost more. */
    private static boolean verifyReversed(ByteBuffer reply, long base, int size) {
        int end = reply.position() + size;
        int full = size >>> 3;
        for (int k = 0; k < full; k++) {
            if (reply.getLong(end - 8 - 8 * k) != word(base, k)) {
                return false;
            }
        }
        int rest = size & 7;
        if (rest != 0) {
            long v = word(base, full);
            for (int i = 0; i < rest; i++) {
                int j = 8 * full + i;
                if (reply.get(end - 1 - j) != (byte) (v >>> (8 * i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** True if {@code reply}'s readable bytes are exactly the body of {@code base} and {@code size}, as sent. */
    public static boolean verifyEcho(ByteBuf reply, long base, int size) {
        return verifyEcho(reply, reply.readerIndex(), reply.readableBytes(), base, size);
    }

    /** True if {@code buf[index, index + length)} is exactly the body of {@code base} and {@code size}, as sent. */
    public static boolean verifyEcho(ByteBuf buf, int index, int length, long base, int size) {
        if (length != size) {
            return false;
        }
        if (size >= NIO_VERIFY_MIN && buf.nioBufferCount() == 1) {
            return verifyEcho(buf.nioBuffer(index, size).order(ByteOrder.LITTLE_ENDIAN), base, size);
        }
        int full = size >>> 3;
        // Body bytes 8k..8k+7 are word k little-endian, where they were written.
        for (int k = 0; k < full; k++) {
            if (buf.getLongLE(index + 8 * k) != word(base, k)) {
                return false;
            }
        }
        int rest = size & 7;
        if (rest != 0) {
            long v = word(base, full);
            for (int i = 0; i < rest; i++) {
                if (buf.getByte(index + 8 * full + i) != (byte) (v >>> (8 * i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** {@link #verifyEcho} on a little-endian NIO view. */
    private static boolean verifyEcho(ByteBuffer reply, long base, int size) {
        int at = reply.position();
        int full = size >>> 3;
        for (int k = 0; k < full; k++) {
            if (reply.getLong(at + 8 * k) != word(base, k)) {
                return false;
            }
        }
        int rest = size & 7;
        if (rest != 0) {
            long v = word(base, full);
            for (int i = 0; i < rest; i++) {
                if (reply.get(at + 8 * full + i) != (byte) (v >>> (8 * i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Byte {@code j} of the body of {@code base}. */
    static byte bodyByte(long base, int j) {
        return (byte) (word(base, j >>> 3) >>> (8 * (j & 7)));
    }

    /**
     * The first offset in {@code reply}'s readable bytes that differs from the body of {@code base} and {@code size}
     * ({@code reversed}: from that body reversed), or -1 if none does within the shorter of the two. A byte at a time:
     * for a bad reply's reason, not for the check itself.
     */
    public static int firstDifference(ByteBuf reply, long base, int size, boolean reversed) {
        int n = Math.min(reply.readableBytes(), size);
        int from = reply.readerIndex();
        for (int p = 0; p < n; p++) {
            if (reply.getByte(from + p) != bodyByte(base, reversed ? size - 1 - p : p)) {
                return p;
            }
        }
        return -1;
    }
}
