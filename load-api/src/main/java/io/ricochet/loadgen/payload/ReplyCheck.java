package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;

/**
 * An {@link Expectation} made concrete for one connection's replies: called as {@code FrameConversation.check} is, on
 * the connection's event loop. A check changes no state that a later check reads (scratch space aside), so checking an
 * older reply again, as UDP does to recognise a late one, gives the same verdict.
 */
interface ReplyCheck {

    Check check(Context request, ByteBuf reply);
}
