package io.ricochet.examples.kv;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.loadgen.workload.FrameWorkload;
import java.nio.charset.StandardCharsets;

/**
 * Puts and gets over {@link KvTextHandler}'s text protocol, each reply checked: {@code ok} for a put, and for a get
 * {@code value V} with the value this connection last put in the key before the get, or {@code missing} if it put
 * none. Each connection has keys of its own ({@code c<connection>-<tag>-k<n>}), so the checks hold whatever the other
 * connections do, with any number of requests in flight.
 *
 * <pre>{@code
 * FrameWorkload kv = new KvTextWorkload(100, 0.5);   // 100 keys a connection, half the requests gets
 * }</pre>
 *
 * From the command line, through {@link KvWorkloads.Text}: {@code --workload-jar ricochet-examples.jar --workload
 * kv-text --workload-param keys=100 --workload-param get-share=0.5}. A bad reply's reason names the request, the reply
 * and what was expected: {@code get c3-x7k2qp-k17: got "value v12-5kq" (expected: "value v15-9zd")}.
 *
 * <p>Size the server's store for it: every connection fills up to {@code keys} keys, and a put refused as {@code
 * error full} is a bad reply (the gets of that key after it are too).
 */
public final class KvTextWorkload extends KvModelWorkload<FrameConversation> implements FrameWorkload {
    /**
     * @param keys     keys per connection, 1..100,000
     * @param getShare the share of requests that are gets, 0..1; the rest are puts
     */
    public KvTextWorkload(int keys, double getShare) {
        super(keys, getShare, Conversation::new);
    }

    /** One connection's requests and checks, all from its model. */
    private record Conversation(KvModel model) implements FrameConversation {
        @Override
        public void request(Context request, ByteBuf body) {
            KvRequest made = model.next(request);
            body.writeCharSequence(made.get() ? "get " : "put ", StandardCharsets.US_ASCII);
            body.writeCharSequence(model.key(made.key()), StandardCharsets.US_ASCII);
            if (!made.get()) {
                body.writeByte(' ');
                body.writeCharSequence(made.value(), StandardCharsets.US_ASCII);
            }
        }

        @Override
        public Check check(Context request, ByteBuf reply) {
            KvRequest made = model.requestAt(request.sequence());
            if (made == null) {
                return Check.bad(KvModel.forgotten(request.sequence()));
            }
            String expected = !made.get() ? "ok" : made.value() == null ? "missing" : "value " + made.value();
            if (isAscii(reply, expected)) {
                return Check.ok();
            }
            return Check.bad(model.describe(made) + ": got " + Quoted.of(reply) + " (expected: " + Quoted.of(expected)
                    + ")");
        }

        /** Whether the reply's bytes are {@code text}'s, compared in place: an ok reply costs no copy. */
        private static boolean isAscii(ByteBuf reply, String text) {
            if (reply.readableBytes() != text.length()) {
                return false;
            }
            int from = reply.readerIndex();
            for (int i = 0; i < text.length(); i++) {
                if (reply.getByte(from + i) != (byte) text.charAt(i)) {
                    return false;
                }
            }
            return true;
        }
    }
}
