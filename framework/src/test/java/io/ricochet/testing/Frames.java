package io.ricochet.testing;

import java.nio.ByteBuffer;
import java.util.Random;

/** Builds frames and bodies for tests. */
public final class Frames {
    private Frames() {
    }

    public static byte[] encode(int width, byte[] body) {
        ByteBuffer buf = ByteBuffer.allocate(width + body.length);
        if (width == 2) {
            buf.putShort((short) body.length);
        } else {
            buf.putInt(body.length);
        }
        return buf.put(body).array();
    }

    public static byte[] header(int width, long length) {
        ByteBuffer buf = ByteBuffer.allocate(width);
        if (width == 2) {
            buf.putShort((short) length);
        } else {
            buf.putInt((int) length);
        }
        return buf.array();
    }

    public static byte[] body(int length, long seed) {
        byte[] body = new byte[length];
        new Random(seed).nextBytes(body);
        return body;
    }

    public static byte[] reversed(byte[] body) {
        byte[] r = new byte[body.length];
        for (int i = 0; i < body.length; i++) {
            r[i] = body[body.length - 1 - i];
        }
        return r;
    }
}
