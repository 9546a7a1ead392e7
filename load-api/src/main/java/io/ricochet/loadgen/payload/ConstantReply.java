package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;

/**
 * Expects the same bytes in every reply, computed once: {@code equals:TEXT} without placeholders, or a constant
 * payload echoed or reversed. Immutable, so one instance serves every connection.
 */
final class ConstantReply implements ReplyCheck {
    private final byte[] expected;
    private final String prefix;

    /** Expects {@code expected} (kept, not copied); a bad reply's reason starts with {@code prefix}. */
    ConstantReply(byte[] expected, String prefix) {
        this.expected = expected;
        this.prefix = prefix;
    }

    @Override
    public Check check(Context request, ByteBuf reply) {
        return SameBytes.equal(reply, expected, expected.length)
                ? Check.ok()
                : Check.bad(SameBytes.reason(prefix, expected, expected.length, reply));
    }
}
