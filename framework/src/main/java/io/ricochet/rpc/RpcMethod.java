package io.ricochet.rpc;

import com.google.protobuf.MessageLite;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Serves one typed method ({@link MethodDescriptor}). As with {@link RpcHandler}: it runs on the
 * connection's event loop unless registered with an executor, and completing exceptionally with an
 * {@link RpcException} answers with its status.
 */
@FunctionalInterface
public interface RpcMethod<Req extends MessageLite, Resp extends MessageLite> {

    /** Answers {@code request}; {@code context} has the deadline, the caller, and the cancellation signal. */
    CompletionStage<Resp> handle(Req request, RpcRequest context);

    /** A method that computes its answer at once from the request. */
    static <Req extends MessageLite, Resp extends MessageLite> RpcMethod<Req, Resp> sync(Function<Req, Resp> function) {
        return (request, context) -> CompletableFuture.completedFuture(function.apply(request));
    }
}
