package io.ricochet.loadgen.workload;

import com.google.protobuf.ByteString;
import java.util.Objects;

/**
 * One call: the method's name (or an agent route's URI) and the request message's bytes.
 *
 * <pre>{@code
 * new RpcCall("kv.get", GetRequest.newBuilder().setKey("k1").build().toByteString())
 * }</pre>
 */
public record RpcCall(String method, ByteString payload) {
    public RpcCall {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(payload, "payload");
    }
}
