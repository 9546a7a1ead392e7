package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.FrameConversation;

/**
 * A template payload whose reply must be the request, echoed or reversed: the bytes of the last {@value #REMEMBERED}
 * requests are kept, by sequence number, so a reply is compared with what was sent rather than with the template
 * expanded again (which cost as much again as making the request). A check of a request no longer remembered (deeper
 * pipelines; a late reply over UDP) expands it again, into a scratch array of its own: checks change no state.
 */
final class RememberingConversation implements FrameConversation {
    /** Requests remembered: the default pipeline and the usual depths; a deeper one expands its replies again. */
    static final int REMEMBERED = 16;

    private final Template template;
    private final boolean reversed;
    private final String prefix;
    private final int[] length = new int[1];
    /** Lazily made: a held connection that sends rarely keeps none until it sends. */
    private byte[][] sent;
    private final long[] sequences = new long[REMEMBERED];
    private final int[] lengths = new int[REMEMBERED];
    private final ExpandedReply fallback;

    RememberingConversation(Template template, boolean reversed, String prefix) {
        this.template = template;
        this.reversed = reversed;
        this.prefix = prefix;
        this.fallback = new ExpandedReply(template, reversed, prefix);
        java.util.Arrays.fill(sequences, -1);
    }

    @Override
    public void request(Context request, ByteBuf body) {
        if (sent == null) {
            sent = new byte[REMEMBERED][];
        }
        long seq = request.sequence();
        int slot = (int) (seq & (REMEMBERED - 1));
        byte[] into = sent[slot] == null ? new byte[template.maxLength()] : sent[slot];
        sent[slot] = template.expand(request, into, length);
        sequences[slot] = seq;
        lengths[slot] = length[0];
        body.writeBytes(sent[slot], 0, length[0]);
    }

    @Override
    public Check check(Context request, ByteBuf reply) {
        long seq = request.sequence();
        int slot = (int) (seq & (REMEMBERED - 1));
        if (sent == null || sequences[slot] != seq) {
            return fallback.check(request, reply);
        }
        byte[] bytes = sent[slot];
        int n = lengths[slot];
        boolean same = reversed ? SameBytes.equalReversed(reply, bytes, n) : SameBytes.equal(reply, bytes, n);
        return same ? Check.ok() : fallback.check(request, reply);
    }
}
