package io.ricochet.echo;

import io.netty.buffer.ByteBuf;
import io.ricochet.transport.FrameHandler;
import io.ricochet.transport.FrameSession;

/** The reference protocol: answers every frame with the same frame, body reversed, in place. Stateless. */
public final class ReverseEchoHandler implements FrameHandler {

    @Override
    public void onFrame(FrameSession session, ByteBuf body) {
        BodyReverser.reverseInPlace(body);
        session.send(body);
    }
}
