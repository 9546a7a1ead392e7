package io.ricochet.loadgen.workload;

/**
 * One RPC connection's calls and the checks of their answers, called on the connection's event loop only. The calls
 * are sent on the connection in the order they are made. With {@code --in-flight} above 1, later calls are made
 * before earlier answers come, and answers may come in any order: each check is given the context of its own call.
 *
 * <p>A call whose deadline passes, or whose connection is lost, is an error and is not checked. Any other answer is:
 * {@code OK} with its payload, or the status the server answered with (a check may expect {@code NOT_FOUND}). An
 * exception thrown by either method counts as an error, with its class and message in {@code first_error}.
 *
 * <pre>{@code
 * RpcConversation get = request -> new RpcCall("kv.get",
 *         GetRequest.newBuilder().setKey("k" + request.sequence()).build().toByteString());   // default check: OK
 * }</pre>
 */
public interface RpcConversation {

    /** The call to make as request {@code request.sequence()}. */
    RpcCall request(Context request);

    /** Checks the answer to that call. The default accepts any {@code OK} answer. */
    default Check check(Context request, RpcReply reply) {
        return reply.isOk() ? Check.ok() : Check.bad(reply.status() + ": " + reply.detail());
    }
}
