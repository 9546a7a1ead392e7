package io.ricochet.rpc;

import io.netty.buffer.ByteBuf;

/**
 * Where a connection's two halves, the calls it makes and the requests it serves, write their envelopes. The connection
 * gives them this port, so they write down through it and hold no reference to the connection.
 */
interface Outbound {
    /** Writes one encoded envelope as a frame, on the event loop; {@code whenWritten}, if not null, runs once it left. */
    void write(ByteBuf envelope, Runnable whenWritten);
}
