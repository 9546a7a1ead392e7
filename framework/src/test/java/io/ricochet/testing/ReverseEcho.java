package io.ricochet.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.ricochet.transport.FrameHandler;
import io.ricochet.transport.FrameSession;

/**
 * The reversed echo for the framework's own tests: each frame answered with its body reversed, in place.
 * (The reference handler lives in the echo-service module, which depends on the framework.)
 */
public final class ReverseEcho implements FrameHandler {

    /**
     * Reverses the readable bytes of {@code body} in place, through one array: a leak-aware buffer at
     * PARANOID records a stack trace for every access, so byte-by-byte would crawl.
     */
    public static void reverse(ByteBuf body) {
        byte[] bytes = ByteBufUtil.getBytes(body);
        for (int i = 0, j = bytes.length - 1; i < j; i++, j--) {
            byte b = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = b;
        }
        body.setBytes(body.readerIndex(), bytes);
    }

    @Override
    public void onFrame(FrameSession session, ByteBuf body) {
        reverse(body);
        session.send(body);
    }
}
