package io.ricochet.loadgen.protobuf;

import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.RpcCall;
import io.ricochet.loadgen.workload.RpcConversation;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.loadgen.workload.RpcWorkload;
import java.util.Objects;

/**
 * Calls of one method with requests made from JSON and answers checked against an {@link Expectation}, for message
 * types known only by their descriptors: load on any method with no code, as ghz gives any gRPC method. Behind the
 * {@code rpc --proto --method --request-type --response-type --data [--expect] [--expect-status]} command.
 *
 * <pre>{@code
 * DescriptorSet set = DescriptorSet.load(Path.of("ricochet_bench.protoset"));
 * MessageType bench = set.messageType("ricochet.bench.BenchMessage");
 * RpcWorkload workload = new DynamicRpcWorkload("bench.update",
 *         RequestData.parse("{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\"}", bench, seed),
 *         Expectation.of(bench, RpcStatus.OK, "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\"}", seed));
 * }</pre>
 *
 * Its conversations keep no state, so every connection shares one.
 */
public final class DynamicRpcWorkload implements RpcWorkload {
    /** The longest method name the RPC envelope carries (docs/rpc.md). */
    static final int MAX_METHOD_LENGTH = 1_024;

    private final String method;
    private final RequestData data;
    private final Expectation expectation;
    private final RpcConversation conversation = new RpcConversation() {
        @Override
        public RpcCall request(Context request) {
            return new RpcCall(method, data.payload(request));
        }

        @Override
        public Check check(Context request, RpcReply reply) {
            return expectation.check(request, reply);
        }
    };

    /**
     * Calls of {@code method} (1 to 1,024 characters) with the requests of {@code data}, whose answers must meet
     * {@code expectation}.
     */
    public DynamicRpcWorkload(String method, RequestData data, Expectation expectation) {
        Objects.requireNonNull(method, "method");
        if (method.isEmpty() || method.length() > MAX_METHOD_LENGTH) {
            throw new IllegalArgumentException("method: " + JsonText.quote(JsonText.abbreviate(method, 60))
                    + " (expected: 1 to 1,024 characters)");
        }
        this.method = method;
        this.data = Objects.requireNonNull(data, "data");
        this.expectation = Objects.requireNonNull(expectation, "expectation");
    }

    public String method() {
        return method;
    }

    @Override
    public RpcConversation open(Context connection) {
        return conversation;
    }
}
