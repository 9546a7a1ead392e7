package io.ricochet.transport.server;

import io.ricochet.testing.ReverseEcho;
import io.ricochet.transport.session.FrameHandler;

/** The TCP contract again, for a handler given one body per frame (RPC's path, and any handler not in place). */
class TcpPerFrameServerTest extends TcpServerTest {
    @Override
    FrameHandler echo() {
        return ReverseEcho.perFrame();
    }
}
