package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.FrameConversation;

/**
 * One connection's requests from a {@link Template}: constant bytes are written as they are; bytes that change per
 * request are expanded into a scratch array of the connection's and written in one copy, which is fewer buffer calls
 * than a write per placeholder.
 */
final class TemplateConversation implements FrameConversation {
    private final Template template;
    private final ReplyCheck replies;
    /** The bytes of every request, when they do not change from one to the next; else null. */
    private final byte[] fixed;
    private final int[] length = new int[1];
    private byte[] scratch;

    /** {@code fixed}: the template's bytes for this connection when it does not vary per request, else null. */
    TemplateConversation(Template template, byte[] fixed, ReplyCheck replies) {
        this.template = template;
        this.fixed = fixed;
        this.replies = replies;
        this.scratch = fixed == null ? new byte[template.maxLength()] : null;
    }

    @Override
    public void request(Context request, ByteBuf body) {
        if (fixed != null) {
            body.writeBytes(fixed);
            return;
        }
        scratch = template.expand(request, scratch, length);
        body.writeBytes(scratch, 0, length[0]);
    }

    @Override
    public Check check(Context request, ByteBuf reply) {
        return replies.check(request, reply);
    }
}
