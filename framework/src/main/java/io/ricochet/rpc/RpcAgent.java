package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.util.concurrent.Future;
import io.ricochet.rpc.proto.Route;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * The relay (nbagent's agent): a client registers a URI, and calls to that URI from any other client
 * are forwarded over the owner's connection, with the time left before the caller's deadline (none if it gave
 * none), and the answer goes back to the caller under the caller's own id; the caller's cancel is passed on to
 * the owner. A route ends with {@code agent.unregister} or its owner's disconnect.
 *
 * <p>Bounded against its peers: routes per client and in all ({@link RpcConfig#maxRoutes}), and bytes of
 * forwarded calls queued for owners ({@link RpcConfig#maxRelayBytes}). A call to an owner that is not
 * reading what it was sent fails at once with {@code RESOURCE_EXHAUSTED} instead of queueing, and an
 * owner that leaves a forwarded call unwritten for {@link RpcConfig#relayWriteTimeout} is disconnected.
 */
public final class RpcAgent {
    public static final String REGISTER = "agent.register";
    public static final String UNREGISTER = "agent.unregister";
    private static final CompletableFuture<ByteString> DONE = CompletableFuture.completedFuture(ByteString.EMPTY);

    /** Envelope bytes of a forwarded call besides its payload and URI: id, kind, timeout and field tags. */
    private static final int FORWARD_OVERHEAD = 32;

    private final ConcurrentHashMap<String, RpcConnection> routes = new ConcurrentHashMap<>();
    /** Each owner's URIs; a set is touched only on its owner's event loop, where its calls arrive and it closes. */
    private final ConcurrentHashMap<RpcConnection, Set<String>> owned = new ConcurrentHashMap<>();
    private final AtomicInteger routeCount = new AtomicInteger();
    private final RpcDispatcher local;
    private final int maxRoutes;
    private final int maxRoutesPerClient;
    private final RelayBudget relayBudget;
    private final long relayWriteTimeoutNanos;

    RpcAgent(RpcDispatcher local, RpcConfig config) {
        this.local = local;
        this.maxRoutes = config.maxRoutes();
        this.maxRoutesPerClient = config.maxRoutesPerClient();
        this.relayBudget = new RelayBudget(config.maxRelayBytes());
        this.relayWriteTimeoutNanos = config.relayWriteTimeout().toNanos();
    }

    /** Bytes of forwarded calls queued now and not yet written to their owners' sockets. */
    public long relayQueuedBytes() {
        return relayBudget.queued();
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
        return withUri(request, this::register);
    }

    private CompletionStage<ByteString> register(String uri, RpcConnection caller) {
        if (uri.equals(REGISTER) || uri.equals(UNREGISTER) || local.contains(uri)) {
            return failed(RpcStatus.ALREADY_EXISTS, "'" + uri + "' is a method of the server");
        }
        Set<String> mine = owned.computeIfAbsent(caller, c -> new HashSet<>());
        if (mine.contains(uri)) {
            return DONE;
        }
        int max = maxRoutesPerClient;
        if (mine.size() >= max) {
            return failed(RpcStatus.RESOURCE_EXHAUSTED, "routes of this client: " + max + " (limit: " + max + ")");
        }
        if (routeCount.incrementAndGet() > maxRoutes) {
            routeCount.decrementAndGet();
            return failed(RpcStatus.RESOURCE_EXHAUSTED, "routes of all clients: " + maxRoutes + " (limit: " + maxRoutes + ")");
        }
        if (routes.putIfAbsent(uri, caller) != null) {
            routeCount.decrementAndGet();
            // Not who owns it: a peer's address is no business of another peer.
            return failed(RpcStatus.ALREADY_EXISTS, "'" + uri + "' is registered by another client");
        }
        mine.add(uri);
        return DONE;
    }

    CompletionStage<ByteString> unregister(RpcRequest request) {
        return withUri(request, this::unregister);
    }

    private CompletionStage<ByteString> unregister(String uri, RpcConnection caller) {
        if (!routes.remove(uri, caller)) {
            return failed(RpcStatus.NOT_FOUND, "'" + uri + "' is not registered by this client");
        }
        routeCount.decrementAndGet();
        Set<String> mine = owned.get(caller);
        if (mine != null) {
            mine.remove(uri);
        }
        return DONE;
    }

    CompletionStage<ByteString> forward(RpcConnection owner, RpcRequest request) {
        if (!owner.isWritable()) {
            return failed(RpcStatus.RESOURCE_EXHAUSTED, "'" + request.method() + "': its owner is not reading its calls");
        }
        long bytes = request.payload().size() + 3L * request.method().length() + FORWARD_OVERHEAD;
        if (!relayBudget.tryReserve(bytes)) {
            return failed(RpcStatus.RESOURCE_EXHAUSTED, "forwarded calls queued: " + relayBudget.queued()
                    + " bytes (limit: " + relayBudget.max() + ")");
        }
        // A caller that gave no deadline gets none on the hop either, as on a direct call: an agent's own default once
        // failed calls after 10 s that worked when made directly. The hop still ends with its owner (its disconnect, or
        // its silence for the idle timeout, fails it at once), its caller (a cancel or disconnect is passed on), and at
        // RpcConfig.MAX_TIMEOUT.
        long remaining = request.deadlineNanos() == 0 ? CallTable.NO_DEADLINE : request.remainingNanos();
        RelayedWrite write = new RelayedWrite(owner, bytes);
        CompletableFuture<ByteString> answer = owner.relay(request.method(), request.payload(), remaining, write);
        write.watch();
        // The caller's cancel, or its disconnect, cancels the hop, which tells the owner. The hop's own
        // deadline timer covers the caller's deadline.
        request.onCancel(() -> answer.cancel(false), false);
        return answer;
    }

    /**
     * One forwarded call's bytes in the relay budget, until they are written to the owner's socket. An owner
     * that leaves them unwritten for the relay write timeout has stopped reading: it is closed at once, which
     * fails its queued writes and so returns their bytes, instead of holding the budget every caller shares.
     */
    private final class RelayedWrite implements Runnable {
        private final RpcConnection owner;
        private final long bytes;
        // The write's end runs on the owner's loop, or on the caller's thread when refused before writing.
        private volatile boolean done;
        private volatile Future<?> timer;

        RelayedWrite(RpcConnection owner, long bytes) {
            this.owner = owner;
            this.bytes = bytes;
        }

        /** The write ended, written or failed: called exactly once, on the owner's event loop (or at once if refused). */
        @Override
        public void run() {
            done = true;
            relayBudget.release(bytes);
            Future<?> started = timer;
            if (started != null) {
                started.cancel(false);
            }
        }

        void watch() {
            try {
                timer = owner.eventLoop().schedule(this::expire, relayWriteTimeoutNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // The owner's loop is shutting down: its writes end, and give their bytes back, with it.
            }
        }

        private void expire() {
            if (!done) {
                owner.abort();
            }
        }
    }

    void dropRoutes(RpcConnection connection) {
        Set<String> mine = owned.remove(connection);
        if (mine == null) {
            return;
        }
        for (String uri : mine) {
            if (routes.remove(uri, connection)) {
                routeCount.decrementAndGet();
            }
        }
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

    /** {@code action} on the request's URI and caller, or the request failed if its payload is no valid URI. */
    private static CompletionStage<ByteString> withUri(RpcRequest request,
            BiFunction<String, RpcConnection, CompletionStage<ByteString>> action) {
        String uri;
        try {
            uri = uri(request);
        } catch (RpcException e) {
            return CompletableFuture.failedFuture(e);
        }
        return action.apply(uri, request.caller());
    }

    private static CompletionStage<ByteString> failed(RpcStatus status, String message) {
        return CompletableFuture.failedFuture(new RpcException(status, message));
    }

    /** The payload of {@code agent.register} and {@code agent.unregister}. */
    public static ByteString route(String uri) {
        return Route.newBuilder().setUri(uri).build().toByteString();
    }
}
