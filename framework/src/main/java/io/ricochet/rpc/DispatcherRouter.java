package io.ricochet.rpc;

/** Routes requests to the methods of one {@link RpcDispatcher}: what an {@link RpcClient} serves to its server. */
final class DispatcherRouter implements RequestRouter {
    private final RpcDispatcher methods;

    DispatcherRouter(RpcDispatcher methods) {
        this.methods = methods;
    }

    @Override
    public Answer route(RpcRequest request) {
        RpcDispatcher.Registration registration = methods.lookup(request.method());
        return registration == null ? Invocation.notFound(request.method()) : Invocation.invoke(registration, request);
    }

    @Override
    public String meterTag(String method) {
        return methods.contains(method) ? method : RpcMetrics.UNKNOWN_METHOD;
    }
}
