package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.netty.channel.EventLoop;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.transport.FrameSession;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * One RPC connection, at either end: it makes calls (matched to responses by id) and answers the
 * requests the peer sends, so an agent can call back the clients connected to it. All state lives on
 * the connection's event loop; {@link #call} may be used from any thread.
 *
 * <p>Each call ends exactly once: by its response, its deadline (a timer on the event loop), or the
 * loss of the connection, whichever removes it from the pending table first. A write that fails closes
 * the channel, so it ends the call as a connection loss. A response that finds no pending call (it came
 * after the deadline) is dropped and counted in {@link #lateResponses}.
 *
 * <p>Futures complete on the event loop: callbacks must not block it (use the {@code *Async} variants
 * with an executor for blocking work).
 */
public final class RpcConnection {
    private final FrameSession session;
    private final RpcConfig config;
    private final RequestRouter router;
    private final RpcMetrics clientMetrics;
    private final RpcMetrics serverMetrics;
    private final LongObjectHashMap<PendingCall> pending = new LongObjectHashMap<>();
    private long nextId;
    private int serving;
    private boolean closed;
    private long lateResponses;
    private Set<String> ownedRoutes;

    RpcConnection(FrameSession session, RpcConfig config, RequestRouter router, RpcMetrics clientMetrics,
            RpcMetrics serverMetrics) {
        this.session = session;
        this.config = config;
        this.router = router;
        this.clientMetrics = clientMetrics;
        this.serverMetrics = serverMetrics;
    }

    /** Calls {@code method} with the configured default deadline. */
    public CompletableFuture<ByteString> call(String method, ByteString payload) {
        return call(method, payload, config.defaultTimeout());
    }

    /**
     * Calls {@code method}; the future completes with the answer's payload or fails with an
     * {@link RpcException}. Thread-safe.
     */
    public CompletableFuture<ByteString> call(String method, ByteString payload, Duration timeout) {
        return call(method, payload, timeout.toNanos());
    }

    public CompletableFuture<ByteString> call(String method, ByteString payload, long timeoutNanos) {
        CompletableFuture<ByteString> result = new CompletableFuture<>();
        if (payload.size() > config.maxPayload()) {
            result.completeExceptionally(new RpcException(RpcStatus.RESOURCE_EXHAUSTED,
                    "payload: " + payload.size() + " bytes (limit: " + config.maxPayload() + ")"));
            return result;
        }
        EventLoop loop = session.eventLoop();
        if (loop.inEventLoop()) {
            start(method, payload, timeoutNanos, result);
        } else {
            loop.execute(() -> start(method, payload, timeoutNanos, result));
        }
        return result;
    }

    private void start(String method, ByteString payload, long timeoutNanos, CompletableFuture<ByteString> result) {
        if (closed) {
            result.completeExceptionally(new RpcException(RpcStatus.UNAVAILABLE, "connection to " + remoteAddress()
                    + " closed"));
            return;
        }
        if (pending.size() >= config.maxInFlight()) {
            result.completeExceptionally(new RpcException(RpcStatus.RESOURCE_EXHAUSTED,
                    "calls in flight: " + pending.size() + " (limit: " + config.maxInFlight() + ")"));
            return;
        }
        long id = ++nextId;
        PendingCall call = new PendingCall(id, method, result, System.nanoTime());
        pending.put(id, call);
        clientMetrics.started();
        call.timer = session.eventLoop().schedule(call, timeoutNanos, TimeUnit.NANOSECONDS);
        Envelope request = Envelope.newBuilder().setId(id).setKind(Kind.REQUEST).setMethod(method)
                .setTimeoutMicros(Math.max(1, timeoutNanos / 1000)).setPayload(payload).build();
        session.reply(EnvelopeCodec.encode(request, session));
    }

    /** Sends {@code method} one way: no answer, no deadline. Thread-safe. */
    public void send(String method, ByteString payload) {
        Envelope message = Envelope.newBuilder().setKind(Kind.ONE_WAY).setMethod(method).setPayload(payload).build();
        EventLoop loop = session.eventLoop();
        if (loop.inEventLoop()) {
            sendNow(message);
        } else {
            loop.execute(() -> sendNow(message));
        }
    }

    private void sendNow(Envelope message) {
        if (!closed) {
            session.reply(EnvelopeCodec.encode(message, session));
        }
    }

    void onEnvelope(Envelope envelope) {
        switch (envelope.getKind()) {
            case RESPONSE -> onResponse(envelope);
            case REQUEST, ONE_WAY -> onRequest(envelope);
            default -> session.close();
        }
    }

    private void onResponse(Envelope response) {
        PendingCall call = pending.remove(response.getId());
        if (call == null) {
            lateResponses++;
            return;
        }
        call.timer.cancel(false);
        RpcStatus status = RpcStatus.of(response.getStatus());
        if (status == RpcStatus.OK) {
            finish(call, status);
            call.result.complete(response.getPayload());
        } else {
            finish(call, status);
            call.result.completeExceptionally(new RpcException(status, response.getMessage()));
        }
    }

    private void finish(PendingCall call, RpcStatus status) {
        clientMetrics.finished(call.method, status, System.nanoTime() - call.startNanos);
    }

    private void onRequest(Envelope request) {
        long id = request.getId();
        boolean oneWay = request.getKind() == Kind.ONE_WAY;
        String method = request.getMethod();
        if (serving >= config.maxInFlight()) {
            refuse(id, oneWay, method, RpcStatus.RESOURCE_EXHAUSTED,
                    "requests in flight: " + serving + " (limit: " + config.maxInFlight() + ")");
            return;
        }
        if (request.getPayload().size() > config.maxPayload()) {
            refuse(id, oneWay, method, RpcStatus.RESOURCE_EXHAUSTED,
                    "payload: " + request.getPayload().size() + " bytes (limit: " + config.maxPayload() + ")");
            return;
        }
        long now = System.nanoTime();
        long deadline = request.getTimeoutMicros() == 0 ? 0 : now + request.getTimeoutMicros() * 1000;
        serving++;
        serverMetrics.started();
        CompletionStage<ByteString> answer;
        try {
            answer = router.route(new RpcRequest(method, request.getPayload(), deadline, this));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((payload, error) -> {
            EventLoop loop = session.eventLoop();
            if (loop.inEventLoop()) {
                answered(id, oneWay, method, now, payload, error);
            } else {
                loop.execute(() -> answered(id, oneWay, method, now, payload, error));
            }
        });
    }

    private void refuse(long id, boolean oneWay, String method, RpcStatus status, String message) {
        serverMetrics.started();
        serverMetrics.finished(method, status, 0);
        if (!oneWay) {
            respond(Envelope.newBuilder().setId(id).setKind(Kind.RESPONSE).setStatus(status.code()).setMessage(message)
                    .build());
        }
    }

    private void answered(long id, boolean oneWay, String method, long startNanos, ByteString payload, Throwable error) {
        serving--;
        Envelope.Builder response = Envelope.newBuilder().setId(id).setKind(Kind.RESPONSE);
        RpcStatus status;
        if (error == null) {
            status = RpcStatus.OK;
            response.setPayload(payload == null ? ByteString.EMPTY : payload);
        } else {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof RpcException e) {
                status = e.status();
                response.setMessage(truncate(e.detail()));
            } else {
                status = RpcStatus.INTERNAL;
                response.setMessage(truncate(cause.toString()));
            }
            response.setStatus(status.code());
        }
        if (status == RpcStatus.OK && payload != null && payload.size() > config.maxPayload()) {
            status = RpcStatus.RESOURCE_EXHAUSTED;
            response.clearPayload().setStatus(status.code())
                    .setMessage("answer payload: " + payload.size() + " bytes (limit: " + config.maxPayload() + ")");
        }
        serverMetrics.finished(method, status, System.nanoTime() - startNanos);
        if (!oneWay) {
            respond(response.build());
        }
    }

    private void respond(Envelope response) {
        if (!closed) {
            session.reply(EnvelopeCodec.encode(response, session));
        }
    }

    private static String truncate(String message) {
        return message.length() <= RpcConfig.MAX_METHOD_LENGTH ? message : message.substring(0, RpcConfig.MAX_METHOD_LENGTH);
    }

    /** The connection is gone: every pending call fails now with {@code UNAVAILABLE}. */
    void closed() {
        closed = true;
        if (pending.isEmpty()) {
            return;
        }
        RpcException lost = new RpcException(RpcStatus.UNAVAILABLE, "connection to " + remoteAddress() + " lost");
        ArrayList<PendingCall> calls = new ArrayList<>(pending.values());
        pending.clear();
        for (PendingCall call : calls) {
            call.timer.cancel(false);
            finish(call, RpcStatus.UNAVAILABLE);
            call.result.completeExceptionally(lost);
        }
    }

    /** Agent URIs this connection owns; event-loop confined. */
    Set<String> ownedRoutes() {
        if (ownedRoutes == null) {
            ownedRoutes = new HashSet<>();
        }
        return ownedRoutes;
    }

    RpcConfig config() {
        return config;
    }

    /** The event loop this connection's state and callbacks live on. */
    public EventLoop eventLoop() {
        return session.eventLoop();
    }

    public boolean isOpen() {
        return !closed;
    }

    public SocketAddress remoteAddress() {
        return session.remoteAddress();
    }

    /** Responses that came after their call's deadline and were dropped. Event-loop confined. */
    public long lateResponses() {
        return lateResponses;
    }

    /** Flushes what is owed and closes; pending calls then fail with {@code UNAVAILABLE}. */
    public void close() {
        session.close();
    }

    private final class PendingCall implements Runnable {
        final long id;
        final String method;
        final CompletableFuture<ByteString> result;
        final long startNanos;
        ScheduledFuture<?> timer;

        PendingCall(long id, String method, CompletableFuture<ByteString> result, long startNanos) {
            this.id = id;
            this.method = method;
            this.result = result;
            this.startNanos = startNanos;
        }

        /** The deadline: ends the call unless a response or the connection's loss ended it first. */
        @Override
        public void run() {
            if (pending.remove(id) == this) {
                finish(this, RpcStatus.DEADLINE_EXCEEDED);
                result.completeExceptionally(new RpcException(RpcStatus.DEADLINE_EXCEEDED,
                        method + " after " + (System.nanoTime() - startNanos) / 1_000_000 + " ms"));
            }
        }
    }
}
