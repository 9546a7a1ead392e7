package io.ricochet.rpc;

/** Decides who answers a request that came in on a connection, and under which tag its meters count it. */
interface RequestRouter {
    /** Who answers {@code request}, and with what kind of payload (see {@link Invocation}). */
    Answer route(RpcRequest request);

    /**
     * The method tag of a request for {@code method}: its own name only if this side serves it, else
     * {@link RpcMetrics#UNKNOWN_METHOD} or {@link RpcMetrics#AGENT_ROUTE}, so a peer cannot mint tag values.
     */
    String meterTag(String method);
}
