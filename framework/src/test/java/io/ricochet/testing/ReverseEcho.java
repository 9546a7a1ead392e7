package io.ricochet.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.InPlaceFrameHandler;

/**
 * The reversed echo for the framework's own tests: each frame answered with its body reversed, in place.
 * (The reference handler lives in the echo-service module, which depends on the framework.) In place, as that one
 * is, so TCP tests serve it through the same {@code FrameRun} path.
 */
public final class ReverseEcho implements InPlaceFrameHandler {

    /**
     * Reverses the readable bytes of {@code body} in place, through one array: a leak-aware buffer at
     * PARANOID records a stack trace for every access, so byte-by-byte would crawl.
     */
    public static void reverse(ByteBuf body) {
        reverse(body, body.readerIndex(), body.readableBytes());
    }

    private static void reverse(ByteBuf buf, int index, int length) {
        byte[] bytes = ByteBufUtil.getBytes(buf, index, length);
        for (int i = 0, j = bytes.length - 1; i < j; i++, j--) {
            byte b = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = b;
        }
        buf.setBytes(index, bytes);
    }

    @Override
    public void rewrite(ByteBuf buf, int index, int length) {
        reverse(buf, index, length);
    }

    /** The same echo as a plain {@link FrameHandler}: the transport hands it one body per frame. */
    public static FrameHandler perFrame() {
        return (session, body) -> {
            reverse(body);
            session.send(body);
        };
    }
}
