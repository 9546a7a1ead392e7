package io.ricochet.loadgen.workload;

import com.google.protobuf.ByteString;
import io.ricochet.rpc.RpcStatus;

/**
 * How a call was answered: {@code OK} with the answer's bytes (the detail then empty), or another status with the
 * server's detail (the payload then empty).
 *
 * <pre>{@code
 * public Check check(Context request, RpcReply reply) {
 *     return reply.status() == RpcStatus.NOT_FOUND ? Check.ok() : Check.bad("expected NOT_FOUND, got " + reply.status());
 * }
 * }</pre>
 */
public record RpcReply(RpcStatus status, ByteString payload, String detail) {

    /** Neither payload nor detail is ever null: an absent one is empty. */
    public RpcReply {
        java.util.Objects.requireNonNull(status, "status");
        payload = payload == null ? ByteString.EMPTY : payload;
        detail = detail == null ? "" : detail;
    }

    public boolean isOk() {
        return status == RpcStatus.OK;
    }
}
