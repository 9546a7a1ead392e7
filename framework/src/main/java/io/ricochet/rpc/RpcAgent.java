package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ricochet.rpc.proto.Route;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The relay (nbagent's agent): a client registers a URI, and calls to that URI from any other client
 * are forwarded over the owner's connection, with the time left before the caller's deadline, and the
 * answer goes back to the caller under the caller's own id. A route ends with {@code agent.unregister}
 * or its owner's disconnect.
 */
public final class RpcAgent {
    public static final String REGISTER = "agent.register";
    public static final String UNREGISTER = "agent.unregister";
    private static final CompletableFuture<ByteString> DONE = CompletableFuture.completedFuture(ByteString.EMPTY);

    private final ConcurrentHashMap<String, RpcConnection> routes = new ConcurrentHashMap<>();
    private final RpcDispatcher local;

    RpcAgent(RpcDispatcher local) {
        this.local = local;
    }

    /** Routes registered now. */
    public int routes() {
        return routes.size();
    }

    RpcConnection owner(String uri) {
        return routes.get(uri);
    }

    /** Runs on the caller's event loop, as does the cleanup of its routes, so its route set needs no lock. */
    CompletionStage<ByteString> register(RpcRequest request) {
        String uri;
        try {
            uri = uri(request);
        } catch (RpcException e) {
            return CompletableFuture.failedFuture(e);
        }
        RpcConnection caller = request.caller();
        if (uri.equals(REGISTER) || uri.equals(UNREGISTER) || local.contains(uri)) {
            return failed(RpcStatus.ALREADY_EXISTS, "'" + uri + "' is a method of the server");
        }
        if (caller.ownedRoutes().contains(uri)) {
            return DONE;
        }
        int max = caller.config().maxRoutesPerClient();
        if (caller.ownedRoutes().size() >= max) {
            return failed(RpcStatus.RESOURCE_EXHAUSTED, "routes of this client: " + max + " (limit: " + max + ")");
        }
        RpcConnection owner = routes.putIfAbsent(uri, caller);
        if (owner != null) {
            return failed(RpcStatus.ALREADY_EXISTS, "'" + uri + "' is registered by " + owner.remoteAddress());
        }
        caller.ownedRoutes().add(uri);
        return DONE;
    }

    CompletionStage<ByteString> unregister(RpcRequest request) {
        String uri;
        try {
            uri = uri(request);
        } catch (RpcException e) {
            return CompletableFuture.failedFuture(e);
        }
        RpcConnection caller = request.caller();
        if (!routes.remove(uri, caller)) {
            return failed(RpcStatus.NOT_FOUND, "'" + uri + "' is not registered by this client");
        }
        caller.ownedRoutes().remove(uri);
        return DONE;
    }

    CompletionStage<ByteString> forward(RpcConnection owner, RpcRequest request) {
        long remaining = request.deadlineNanos() == 0 ? owner.config().defaultTimeout().toNanos()
                : request.remainingNanos();
        return owner.call(request.method(), request.payload(), remaining);
    }

    void dropRoutes(RpcConnection connection) {
        for (String uri : connection.ownedRoutes()) {
            routes.remove(uri, connection);
        }
        connection.ownedRoutes().clear();
    }

    private static String uri(RpcRequest request) {
        String uri;
        try {
            uri = Route.parseFrom(request.payload()).getUri();
        } catch (InvalidProtocolBufferException e) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, "payload is not a Route: " + e.getMessage());
        }
        if (uri.isEmpty() || uri.length() > RpcConfig.MAX_METHOD_LENGTH) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT,
                    "uri: '" + uri + "' (expected: 1.." + RpcConfig.MAX_METHOD_LENGTH + " characters)");
        }
        return uri;
    }

    private static CompletionStage<ByteString> failed(RpcStatus status, String message) {
        return CompletableFuture.failedFuture(new RpcException(status, message));
    }

    /** The payload of {@code agent.register} and {@code agent.unregister}. */
    public static ByteString route(String uri) {
        return Route.newBuilder().setUri(uri).build().toByteString();
    }
}
