package io.ricochet.examples.kv;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ricochet.examples.kv.proto.GetReply;
import io.ricochet.examples.kv.proto.GetRequest;
import io.ricochet.examples.kv.proto.PutReply;
import io.ricochet.examples.kv.proto.PutRequest;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.RpcCall;
import io.ricochet.loadgen.workload.RpcConversation;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.loadgen.workload.RpcWorkload;

/**
 * Puts and gets over {@link KvMethods}' {@code kv.put} and {@code kv.get}, each answer checked: {@code OK} for a put,
 * and for a get {@code found} with the value this connection last put in the key before the get, or not {@code found}
 * if it put none. Each connection has keys of its own ({@code c<connection>-<tag>-k<n>}), and answers may come in any
 * order: each check looks up what its own call expected.
 *
 * <pre>{@code
 * RpcWorkload kv = new KvRpcWorkload(100, 0.5);   // 100 keys a connection, half the calls gets
 * }</pre>
 *
 * From the command line, through {@link KvWorkloads.Rpc}: {@code --workload-jar ricochet-examples.jar --workload
 * kv-rpc --workload-param keys=100}. A bad answer's reason names the call, the answer and what was expected: {@code
 * get c3-x7k2qp-k17: got value "v12-5kq" (expected: value "v15-9zd")}, {@code put c3-x7k2qp-k4: got
 * RESOURCE_EXHAUSTED "full: ..." (expected: OK)}.
 *
 * <p>Size the server's store for it: every connection fills up to {@code keys} keys.
 */
public final class KvRpcWorkload extends KvModelWorkload<RpcConversation> implements RpcWorkload {
    /**
     * @param keys     keys per connection, 1..100,000
     * @param getShare the share of calls that are gets, 0..1; the rest are puts
     */
    public KvRpcWorkload(int keys, double getShare) {
        super(keys, getShare, Conversation::new);
    }

    /** One connection's requests and checks, all from its model. */
    private record Conversation(KvModel model) implements RpcConversation {
        @Override
        public RpcCall request(Context request) {
            KvRequest made = model.next(request);
            String key = model.key(made.key());
            if (made.get()) {
                return new RpcCall(KvMethods.GET.name(), GetRequest.newBuilder().setKey(key).build().toByteString());
            }
            return new RpcCall(KvMethods.PUT.name(), PutRequest.newBuilder().setKey(key)
                    .setValue(ByteString.copyFromUtf8(made.value())).build().toByteString());
        }

        @Override
        public Check check(Context request, RpcReply reply) {
            KvRequest made = model.requestAt(request.sequence());
            if (made == null) {
                return Check.bad(KvModel.forgotten(request.sequence()));
            }
            String expected = !made.get() ? "OK"
                    : made.value() == null ? "missing" : "value " + Quoted.of(made.value());
            if (!reply.isOk()) {
                String detail = reply.detail() == null ? "" : reply.detail();
                return bad(made, reply.status() + " " + Quoted.of(detail), expected);
            }
            try {
                if (!made.get()) {
                    PutReply.parseFrom(reply.payload());
                    return Check.ok();
                }
                GetReply answer = GetReply.parseFrom(reply.payload());
                if (made.value() == null ? !answer.getFound()
                        : answer.getFound() && answer.getValue().equals(ByteString.copyFromUtf8(made.value()))) {
                    return Check.ok();
                }
                return bad(made, answer.getFound() ? "value " + Quoted.of(answer.getValue()) : "missing", expected);
            } catch (InvalidProtocolBufferException e) {
                return bad(made, "an answer that is not a " + (made.get() ? "GetReply" : "PutReply") + " ("
                        + e.getMessage() + ")", expected);
            }
        }

        private Check bad(KvRequest made, String got, String expected) {
            return Check.bad(model.describe(made) + ": got " + got + " (expected: " + expected + ")");
        }
    }
}
