package io.ricochet.loadgen.workload;

/**
 * A workload of calls to a Ricochet RPC server (docs/rpc.md), or to methods that clients serve through its agent.
 *
 * <pre>{@code
 * RpcWorkload reverse = connection -> new RpcConversation() {
 *     public RpcCall request(Context request) {
 *         return new RpcCall("echo.reverse", ByteString.copyFromUtf8("abc" + request.sequence()));
 *     }
 *
 *     public Check check(Context request, RpcReply reply) {
 *         return reply.payload().toStringUtf8().equals(request.sequence() + "cba")
 *                 ? Check.ok() : Check.bad("not reversed");
 *     }
 * };
 * }</pre>
 */
@FunctionalInterface
public interface RpcWorkload extends Workload {

    /** The conversation of one new connection, called on its event loop when it opens. */
    RpcConversation open(Context connection);
}
