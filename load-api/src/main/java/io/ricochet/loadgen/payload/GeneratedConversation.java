package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.FrameConversation;

/**
 * One connection's generated bodies ({@link Payload}): each derived from (seed, connection, sequence) and derived again
 * to check its reply, so nothing is kept between a request and its reply. A reply that must be the body, reversed or
 * not, is compared here, in place, as the load generator has always done; any other expectation is delegated.
 *
 * @param payload  the bodies
 * @param reversed whether a reply compared here is the body reversed, rather than the body as sent
 * @param other    the check of any other expectation; null when the reply is compared with the body here
 */
record GeneratedConversation(Payload payload, boolean reversed, ReplyCheck other) implements FrameConversation {

    @Override
    public void request(Context request, ByteBuf body) {
        long base = payload.base(request.connection(), request.sequence());
        Payload.write(body, base, payload.size(base));
    }

    @Override
    public Check check(Context request, ByteBuf reply) {
        if (other != null) {
            return other.check(request, reply);
        }
        long base = payload.base(request.connection(), request.sequence());
        int size = payload.size(base);
        boolean same = reversed ? Payload.verifyReversed(reply, base, size) : Payload.verifyEcho(reply, base, size);
        return same ? Check.ok() : Check.bad(reason(reply, base, size));
    }

    /**
     * {@code not the request reversed: 64 bytes, first difference at byte 3}; or, when the length is wrong, the length
     * and the reply's start, which often says why (a server's error message, say).
     */
    private String reason(ByteBuf reply, long base, int size) {
        StringBuilder out = new StringBuilder(reversed ? "not the request reversed: " : "not the request echoed: ");
        int got = reply.readableBytes();
        if (got != size) {
            out.append(got).append(" bytes (expected: ").append(size).append("): ");
            Excerpt.quote(out, reply, 0);
            return out.toString();
        }
        return out.append(size).append(" bytes, first difference at byte ")
                .append(Payload.firstDifference(reply, base, size, reversed)).toString();
    }
}
