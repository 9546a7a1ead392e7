package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs a registered handler where its registration says: inline on the event loop, or on its executor. A typed method
 * on the loop answers with its message ({@link Answer.Message}), written straight into the frame; every other answer is
 * bytes ({@link Answer.Bytes}): on an executor the message is encoded there, off the loop.
 */
final class Invocation {
    private Invocation() {
    }

    static Answer invoke(RpcDispatcher.Registration registration, RpcRequest request) {
        if (registration.executor() == null) {
            RpcHandler handler = registration.handler();
            return handler instanceof TypedHandler<?, ?> typed ? new Answer.Message(typed.answer(request))
                    : new Answer.Bytes(handler.handle(request));
        }
        CompletableFuture<ByteString> result = new CompletableFuture<>();
        try {
            registration.executor().execute(() -> {
                try {
                    registration.handler().handle(request).whenComplete((v, e) -> {
                        if (e == null) {
                            result.complete(v);
                        } else {
                            result.completeExceptionally(e);
                        }
                    });
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new RpcException(RpcStatus.RESOURCE_EXHAUSTED,
                    request.method() + ": executor rejected the call"));
        }
        return new Answer.Bytes(result);
    }

    /**
     * {@code stage} if it is a plain {@code CompletableFuture} that is already complete, else null. Exactly that class:
     * the stages of {@code completedStage} and {@code minimalCompletionStage} are subclasses whose {@code isDone} throws.
     */
    static <T> CompletableFuture<T> doneNow(CompletionStage<T> stage) {
        return stage != null && stage.getClass() == CompletableFuture.class && ((CompletableFuture<T>) stage).isDone()
                ? (CompletableFuture<T>) stage : null;
    }

    static Answer notFound(String method) {
        return new Answer.Bytes(CompletableFuture.failedFuture(
                new RpcException(RpcStatus.NOT_FOUND, "no method or route '" + method + "'")));
    }
}
