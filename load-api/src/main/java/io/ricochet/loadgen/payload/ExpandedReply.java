package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;

/**
 * Expects a template's bytes for the request, regenerated in a scratch array of this connection's rather than kept
 * from the request: {@code equals:TEXT} with placeholders, or a payload with placeholders echoed or reversed. The
 * scratch is only ever written before it is read within one check, so checks stay free of state.
 */
final class ExpandedReply implements ReplyCheck {
    private final Template template;
    private final boolean reversed;
    private final String prefix;
    private final int[] length = new int[1];
    private byte[] scratch;

    /** Expects {@code template}'s bytes, {@code reversed} or not; a bad reply's reason starts with {@code prefix}. */
    ExpandedReply(Template template, boolean reversed, String prefix) {
        this.template = template;
        this.reversed = reversed;
        this.prefix = prefix;
    }

    @Override
    public Check check(Context request, ByteBuf reply) {
        if (scratch == null) {
            // Made on first use: a conversation that compares with what it sent may never need it.
            scratch = new byte[template.maxLength()];
        }
        scratch = template.expand(request, scratch, length);
        int n = length[0];
        if (reversed) {
            reverse(scratch, n);
        }
        return SameBytes.equal(reply, scratch, n) ? Check.ok() : Check.bad(SameBytes.reason(prefix, scratch, n, reply));
    }

    private static void reverse(byte[] bytes, int length) {
        for (int i = 0, j = length - 1; i < j; i++, j--) {
            byte b = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = b;
        }
    }
}
