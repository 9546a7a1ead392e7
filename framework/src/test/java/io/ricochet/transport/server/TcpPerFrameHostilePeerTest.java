package io.ricochet.transport.server;

import io.ricochet.testing.ReverseEcho;
import io.ricochet.transport.session.FrameHandler;

/** The hostile peers again, against a handler given one body per frame. */
class TcpPerFrameHostilePeerTest extends TcpHostilePeerTest {
    @Override
    FrameHandler echo() {
        return ReverseEcho.perFrame();
    }
}
