package io.ricochet.rpc;

/**
 * Decides who answers a request that came in on a connection, and under which tag its meters count it: the agent's
 * built-in methods (with an agent), then the dispatcher's methods, then the agent's routes. A client's connections
 * and an agentless server's have no agent, and serve the dispatcher's methods only.
 */
final class RequestRouter {
    private final RpcDispatcher dispatcher;
    /** Null for none. */
    private final RpcAgent agent;

    RequestRouter(RpcDispatcher dispatcher, RpcAgent agent) {
        this.dispatcher = dispatcher;
        this.agent = agent;
    }

    /** Who answers {@code request}, and with what kind of payload (see {@link Invocation}). */
    Answer route(RpcRequest request) {
        String method = request.method();
        if (agent != null && method.equals(RpcAgent.REGISTER)) {
            return new Answer.Bytes(agent.register(request));
        }
        if (agent != null && method.equals(RpcAgent.UNREGISTER)) {
            return new Answer.Bytes(agent.unregister(request));
        }
        RpcDispatcher.Registration registration = dispatcher.lookup(method);
        if (registration != null) {
            return Invocation.invoke(registration, request);
        }
        RpcConnection owner = agent == null ? null : agent.owner(method);
        if (owner != null) {
            return new Answer.Bytes(agent.forward(owner, request));
        }
        return Invocation.notFound(method);
    }

    /**
     * The method tag of a request for {@code method}: its own name only if this side serves it, else
     * {@link RpcMetrics#UNKNOWN_METHOD} or {@link RpcMetrics#AGENT_ROUTE}, so a peer cannot mint tag values.
     */
    String meterTag(String method) {
        if (dispatcher.contains(method)) {
            return method;
        }
        if (agent == null) {
            return RpcMetrics.UNKNOWN_METHOD;
        }
        if (method.equals(RpcAgent.REGISTER) || method.equals(RpcAgent.UNREGISTER)) {
            return method;
        }
        return agent.owner(method) != null ? RpcMetrics.AGENT_ROUTE : RpcMetrics.UNKNOWN_METHOD;
    }
}
