package io.ricochet.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.Random;

/** Pre-built wire bytes for benchmarks. */
public final class Wire {
    private Wire() {
    }

    /** A body of {@code size} random bytes, the same for the same {@code seed}. */
    public static byte[] body(int size, long seed) {
        byte[] body = new byte[size];
        new Random(seed).nextBytes(body);
        return body;
    }

    /** {@code count} frames of {@code size}-byte bodies with a {@code width}-byte length field, in one pooled direct buffer. */
    public static ByteBuf frames(int width, int size, int count, long seed) {
        byte[] body = body(size, seed);
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer((width + size) * count);
        for (int i = 0; i < count; i++) {
            if (width == 2) {
                buf.writeShort(size);
            } else {
                buf.writeInt(size);
            }
            buf.writeBytes(body);
        }
        return buf;
    }
}
