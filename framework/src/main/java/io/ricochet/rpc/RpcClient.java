package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One long-lived connection to an RPC server or agent. Calls while disconnected fail at once with
 * {@code UNAVAILABLE}. With reconnect configured, a lost connection is re-established with exponential
 * backoff and the URIs this client serves are registered again at the agent.
 */
public final class RpcClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RpcClient.class);

    private final RpcClients group;
    private final InetSocketAddress target;
    private final RpcDispatcher served = new RpcDispatcher();
    private final Set<String> routes = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> firstConnect = new CompletableFuture<>();
    private volatile RpcConnection connection;
    private volatile boolean closed;
    private volatile ScheduledFuture<?> reconnect;
    private long backoffNanos;

    RpcClient(RpcClients group, InetSocketAddress target) {
        this.group = group;
        this.target = target;
        this.backoffNanos = group.config().reconnectInitialDelay().toNanos();
    }

    CompletableFuture<Void> start() {
        attempt();
        return firstConnect;
    }

    private void attempt() {
        if (closed) {
            return;
        }
        // Completes once the transport is up: with TLS the session opens before its handshake ends.
        CompletableFuture<Void> established = new CompletableFuture<>();
        RpcConnection next = group.newConnection(new RequestRouter(served, null), c -> opened(c, established),
                c -> lost(established));
        group.connect(target, next).whenComplete((session, e) -> {
            if (e == null) {
                established.complete(null);
                if (closed) {
                    // Closed while connecting: this connection is not wanted either.
                    next.close();
                }
                return;
            }
            established.completeExceptionally(e);
            if (!firstConnect.isDone() || !group.config().reconnect()) {
                firstConnect.completeExceptionally(new RpcException(RpcStatus.UNAVAILABLE,
                        "cannot connect to " + target + ": " + why(e)));
            } else {
                scheduleReconnect();
            }
        });
    }

    /** Why a connect failed, in one line; a connection that was made and then lost is a failed TLS or Noise handshake. */
    private String why(Throwable e) {
        String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        if (group.config().tls() != null && !(e instanceof ConnectException)) {
            return "TLS handshake failed (" + message + "; does the server speak TLS, with a certificate this client trusts?)";
        }
        if (group.config().noise() != null && !(e instanceof ConnectException)) {
            return "Noise handshake failed (" + message + ")";
        }
        return message;
    }

    private void opened(RpcConnection opened, CompletableFuture<Void> established) {
        ByteString credential = group.config().credential();
        if (credential == null) {
            ready(opened, established);
            return;
        }
        // Before anything else on the connection: the server answers every other call UNAUTHENTICATED until then.
        opened.call(RpcConnection.AUTH, credential).whenComplete((v, e) -> {
            if (e == null) {
                ready(opened, established);
                return;
            }
            log.warn("authenticating to {}: {}", target, RpcConnection.unwrap(e).getMessage());
            if (!firstConnect.isDone()) {
                // A wrong credential stays wrong: no reconnects.
                closed = true;
                firstConnect.completeExceptionally(RpcConnection.unwrap(e));
            }
            opened.close();
        });
    }

    private void ready(RpcConnection opened, CompletableFuture<Void> established) {
        connection = opened;
        backoffNanos = group.config().reconnectInitialDelay().toNanos();
        if (firstConnect.isDone()) {
            for (String uri : routes) {
                opened.call(RpcAgent.REGISTER, RpcAgent.route(uri)).whenComplete((v, e) -> {
                    if (e != null) {
                        log.warn("re-registering {} at {} after reconnect: {}", uri, target, e.getMessage());
                    }
                });
            }
        }
        // A failed handshake fails the first connect in attempt(), with its cause.
        established.thenRun(() -> firstConnect.complete(null));
    }

    private void lost(CompletableFuture<Void> established) {
        // Only a connection that was up: one whose connect or handshake failed is retried (or not) by attempt().
        if (!closed && group.config().reconnect() && established.isDone() && !established.isCompletedExceptionally()) {
            log.info("connection to {} lost; reconnecting", target);
            scheduleReconnect();
        }
    }

    private void scheduleReconnect() {
        if (closed) {
            return;
        }
        long delay = backoffNanos;
        backoffNanos = Math.min(backoffNanos * 2, group.config().reconnectMaxDelay().toNanos());
        reconnect = group.eventLoops().group().schedule(this::attempt, delay, TimeUnit.NANOSECONDS);
    }

    /** Calls {@code method} with the configured default deadline. */
    public CompletableFuture<ByteString> call(String method, ByteString payload) {
        return call(method, payload, group.config().rpc().defaultTimeout());
    }

    /** Calls {@code method}; fails with {@link RpcException} (its {@link RpcStatus} says why). */
    public CompletableFuture<ByteString> call(String method, ByteString payload, Duration timeout) {
        RpcConnection current = connection;
        if (current == null || !current.isOpen()) {
            return CompletableFuture.failedFuture(new RpcException(RpcStatus.UNAVAILABLE, "not connected to " + target));
        }
        return current.call(method, payload, timeout);
    }

    /** Calls a typed method with the configured default deadline. */
    public <Req extends MessageLite, Resp extends MessageLite> CompletableFuture<Resp> call(MethodDescriptor<Req, Resp> method,
            Req request) {
        return call(method, request, group.config().rpc().defaultTimeout());
    }

    /** Calls a typed method; fails with {@link RpcException} itself (not wrapped), as a raw call does. */
    public <Req extends MessageLite, Resp extends MessageLite> CompletableFuture<Resp> call(MethodDescriptor<Req, Resp> method,
            Req request, Duration timeout) {
        RpcConnection current = connection;
        if (current == null || !current.isOpen()) {
            return CompletableFuture.failedFuture(new RpcException(RpcStatus.UNAVAILABLE, "not connected to " + target));
        }
        return current.call(method, request, timeout);
    }

    /**
     * Sends {@code method} one way (no answer). Completes once queued on the connection; fails with
     * {@link RpcException}: {@code UNAVAILABLE} while not connected, {@code RESOURCE_EXHAUSTED} for a
     * payload over the limit (the connection stays).
     */
    public CompletableFuture<Void> send(String method, ByteString payload) {
        RpcConnection current = connection;
        if (current == null || !current.isOpen()) {
            return CompletableFuture.failedFuture(new RpcException(RpcStatus.UNAVAILABLE, "not connected to " + target));
        }
        return current.send(method, payload);
    }

    /**
     * Serves {@code method} to the server at the other end of this connection, which may call it back
     * (a controller calling its workers); not registered at any agent. False if already served.
     */
    public boolean handle(String method, RpcHandler handler) {
        return served.register(method, handler);
    }

    /**
     * Serves {@code uri} through the agent: registers the handler here, then the route there. Fails with
     * {@code ALREADY_EXISTS} if another client owns it.
     */
    public CompletableFuture<Void> serve(String uri, RpcHandler handler) {
        if (!served.register(uri, handler)) {
            return CompletableFuture.failedFuture(new RpcException(RpcStatus.ALREADY_EXISTS, uri + " is served already"));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        call(RpcAgent.REGISTER, RpcAgent.route(uri)).whenComplete((v, e) -> {
            if (e != null) {
                served.unregister(uri);
                done.completeExceptionally(RpcConnection.unwrap(e));
            } else {
                routes.add(uri);
                done.complete(null);
            }
        });
        return done;
    }

    /** Removes the route at the agent, then the handler here. */
    public CompletableFuture<Void> unserve(String uri) {
        routes.remove(uri);
        CompletableFuture<Void> done = new CompletableFuture<>();
        call(RpcAgent.UNREGISTER, RpcAgent.route(uri)).whenComplete((v, e) -> {
            served.unregister(uri);
            if (e != null) {
                done.completeExceptionally(RpcConnection.unwrap(e));
            } else {
                done.complete(null);
            }
        });
        return done;
    }

    public boolean isConnected() {
        RpcConnection current = connection;
        return current != null && current.isOpen();
    }

    public InetSocketAddress target() {
        return target;
    }

    /** The current connection, or null before the first connect. */
    public RpcConnection connection() {
        return connection;
    }

    /**
     * Closes the connection for good, cancelling a reconnect that is waiting; calls in flight fail with
     * {@code UNAVAILABLE}.
     */
    @Override
    public void close() {
        closed = true;
        ScheduledFuture<?> pending = reconnect;
        if (pending != null) {
            pending.cancel(false);
        }
        RpcConnection current = connection;
        if (current != null) {
            current.close();
        }
        group.forget(this);
    }
}
