package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.FrameConversation;
import java.util.Arrays;

/**
 * A template payload whose reply must be the request, echoed or reversed: the bytes of the requests still awaiting
 * their replies are kept, by sequence number, so a reply is compared with what was sent rather than with the template
 * expanded again (which cost as much again as making the request). The ring holds as many as are in flight, from 2 up
 * to {@value #REMEMBERED}; a check of a request no longer kept (a deeper pipeline; a late reply over UDP) expands it
 * again, into a scratch array of its own, and a check changes nothing a verdict depends on.
 */
final class RememberingConversation implements FrameConversation {
    /** The most requests kept: the usual pipeline depths; a deeper one expands its replies again. */
    static final int REMEMBERED = 16;

    private final Template template;
    private final boolean reversed;
    private final int[] length = new int[1];
    private final ExpandedReply fallback;
    /** Made at the first request, two slots, doubled while a request not yet answered would be overwritten. */
    private byte[][] sent;
    private long[] sequences;
    private int[] lengths;
    /** The highest sequence checked so far: requests up to it need keeping no longer. */
    private long checked = -1;

    RememberingConversation(Template template, boolean reversed, String prefix) {
        this.template = template;
        this.reversed = reversed;
        this.fallback = new ExpandedReply(template, reversed, prefix);
    }

    @Override
    public void request(Context request, ByteBuf body) {
        long seq = request.sequence();
        if (sent == null) {
            resize(2);
        }
        int slot = (int) (seq & (sent.length - 1));
        while (sequences[slot] > checked && sent.length < REMEMBERED) {
            resize(2 * sent.length);
            slot = (int) (seq & (sent.length - 1));
        }
        byte[] into = sent[slot] == null ? new byte[template.maxLength()] : sent[slot];
        sent[slot] = template.expand(request, into, length);
        sequences[slot] = seq;
        lengths[slot] = length[0];
        body.writeBytes(sent[slot], 0, length[0]);
    }

    /** Makes the ring {@code capacity} slots, each kept request in its slot for its sequence. */
    private void resize(int capacity) {
        byte[][] oldSent = sent;
        long[] oldSequences = sequences;
        int[] oldLengths = lengths;
        sent = new byte[capacity][];
        sequences = new long[capacity];
        lengths = new int[capacity];
        Arrays.fill(sequences, -1);
        if (oldSent != null) {
            for (int i = 0; i < oldSent.length; i++) {
                if (oldSequences[i] >= 0) {
                    int slot = (int) (oldSequences[i] & (capacity - 1));
                    sent[slot] = oldSent[i];
                    sequences[slot] = oldSequences[i];
                    lengths[slot] = oldLengths[i];
                }
            }
        }
    }

    @Override
    public Check check(Context request, ByteBuf reply) {
        long seq = request.sequence();
        if (seq > checked) {
            checked = seq;
        }
        int slot = sent == null ? 0 : (int) (seq & (sent.length - 1));
        if (sent == null || sequences[slot] != seq) {
            return fallback.check(request, reply);
        }
        byte[] bytes = sent[slot];
        int n = lengths[slot];
        boolean same = reversed ? SameBytes.equalReversed(reply, bytes, n) : SameBytes.equal(reply, bytes, n);
        return same ? Check.ok() : fallback.check(request, reply);
    }
}
