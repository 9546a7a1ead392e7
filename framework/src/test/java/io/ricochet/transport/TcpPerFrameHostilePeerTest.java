package io.ricochet.transport;

import io.ricochet.testing.ReverseEcho;

/** The hostile peers again, against a handler given one body per frame. */
class TcpPerFrameHostilePeerTest extends TcpHostilePeerTest {
    @Override
    FrameHandler echo() {
        return ReverseEcho.perFrame();
    }
}
