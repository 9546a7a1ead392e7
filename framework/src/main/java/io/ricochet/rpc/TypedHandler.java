package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A typed method as the dispatcher holds it. Served on the event loop, its answer is taken as a message
 * ({@link #answer}) and encoded straight into the response frame, with no {@code ByteString}, and with no extra stage
 * when it is given at once. {@link #handle} gives the bytes: for a method on an executor, which encodes there, and for
 * code that calls a registration's handler itself.
 */
final class TypedHandler<Req extends MessageLite, Resp extends MessageLite> implements RpcHandler {
    private final MethodDescriptor<Req, Resp> method;
    private final RpcMethod<Req, Resp> handler;

    TypedHandler(MethodDescriptor<Req, Resp> method, RpcMethod<Req, Resp> handler) {
        this.method = method;
        this.handler = handler;
    }

    /** The handler's answer to {@code request}; a null message fails it ({@code INTERNAL}) rather than answering empty. */
    CompletionStage<Resp> answer(RpcRequest request) {
        CompletionStage<Resp> answer = handler.handle(method.parseRequest(request.payload()), request);
        CompletableFuture<Resp> now = Invocation.doneNow(answer);
        if (now != null && !now.isCompletedExceptionally()) {
            // The usual synchronous answer: checked here, not in one more stage.
            return now.join() != null ? now : CompletableFuture.failedFuture(answeredNull());
        }
        return answer.thenApply(this::nonNull);
    }

    @Override
    public CompletionStage<ByteString> handle(RpcRequest request) {
        return answer(request).thenApply(MessageLite::toByteString);
    }

    private Resp nonNull(Resp response) {
        if (response == null) {
            throw answeredNull();
        }
        return response;
    }

    private RpcException answeredNull() {
        return new RpcException(RpcStatus.INTERNAL, method.name() + ": the handler answered null (expected: a message)");
    }
}
