package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Serves one method. Runs on the connection's event loop unless registered with an executor, so it
 * must not block there: return an incomplete stage and complete it later. Completing exceptionally
 * with an {@link RpcException} answers with its status; any other failure answers {@code INTERNAL}.
 */
@FunctionalInterface
public interface RpcHandler {

    CompletionStage<ByteString> handle(RpcRequest request);

    /** A handler that computes its answer at once from the payload. */
    static RpcHandler sync(Function<ByteString, ByteString> function) {
        return request -> CompletableFuture.completedFuture(function.apply(request.payload()));
    }
}
