package io.ricochet.rpc;

import com.google.protobuf.MessageLite;
import io.ricochet.config.Checks;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Method name → handler, changed at any time while serving: a call sees the registration current when
 * its request is read. Thread-safe.
 */
public final class RpcDispatcher {
    /** A handler and where it runs: {@code executor} null means on the event loop. */
    public record Registration(RpcHandler handler, Executor executor) {
    }

    private final ConcurrentHashMap<String, Registration> methods = new ConcurrentHashMap<>();

    /** Serves {@code method} on the event loop; false if the name was taken (the old handler stays). */
    public boolean register(String method, RpcHandler handler) {
        return register(method, handler, null);
    }

    /**
     * Serves {@code method}, running the handler on {@code executor} when it may block; false if the
     * name was taken.
     */
    public boolean register(String method, RpcHandler handler, Executor executor) {
        checkMethod(method);
        Checks.notNull("handler", handler);
        return methods.putIfAbsent(method, new Registration(handler, executor)) == null;
    }

    /** Serves the typed {@code method} on the event loop; false if the name was taken. */
    public <Req extends MessageLite, Resp extends MessageLite> boolean register(MethodDescriptor<Req, Resp> method,
            RpcMethod<Req, Resp> handler) {
        return register(method, handler, null);
    }

    /**
     * Serves the typed {@code method}, on {@code executor} when it may block: a payload that is not its
     * request answers {@code INVALID_ARGUMENT}. False if the name was taken.
     */
    public <Req extends MessageLite, Resp extends MessageLite> boolean register(MethodDescriptor<Req, Resp> method,
            RpcMethod<Req, Resp> handler, Executor executor) {
        Checks.notNull("method", method);
        Checks.notNull("handler", handler);
        return register(method.name(), new TypedHandler<>(method, handler), executor);
    }

    /** Stops serving {@code method}; later calls get {@code NOT_FOUND}. False if it was not registered. */
    public boolean unregister(String method) {
        return methods.remove(method) != null;
    }

    public Registration lookup(String method) {
        return methods.get(method);
    }

    public boolean contains(String method) {
        return methods.containsKey(method);
    }

    public Set<String> methods() {
        return Set.copyOf(methods.keySet());
    }

    static void checkMethod(String method) {
        Checks.notNull("method", method);
        if (method.isEmpty() || method.length() > RpcConfig.MAX_METHOD_LENGTH) {
            throw new IllegalArgumentException("method: '" + method + "' (expected: 1.." + RpcConfig.MAX_METHOD_LENGTH
                    + " characters)");
        }
    }
}
