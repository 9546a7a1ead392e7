package io.ricochet.echo;

import io.netty.buffer.ByteBuf;
import io.ricochet.transport.session.InPlaceFrameHandler;

/** The reference protocol: answers every frame with the same frame, body reversed, in place. Stateless. */
public final class ReverseEchoHandler implements InPlaceFrameHandler {

    @Override
    public void rewrite(ByteBuf buf, int index, int length) {
        BodyReverser.reverseInPlace(buf, index, length);
    }
}
