package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
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
import java.util.concurrent.RejectedExecutionException;
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
    /** UTF-8 bytes {@link RpcConfig#MAX_METHOD_LENGTH} characters can take. */
    private static final int MAX_METHOD_BYTES = 3 * RpcConfig.MAX_METHOD_LENGTH;
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

    /** As {@link #call(String, ByteString, Duration)}; a deadline over {@link RpcConfig#MAX_TIMEOUT} is that. */
    public CompletableFuture<ByteString> call(String method, ByteString payload, long timeoutNanos) {
        return call(method, method, payload, timeoutNanos, null);
    }

    /**
     * The agent's hop to a route's owner: counted under the route tag, and {@code whenWritten} runs once
     * the request has left the outbound buffer, or at once if it is never written.
     */
    CompletableFuture<ByteString> relay(String uri, ByteString payload, long timeoutNanos, Runnable whenWritten) {
        return call(uri, RpcMetrics.AGENT_ROUTE, payload, timeoutNanos, whenWritten);
    }

    private CompletableFuture<ByteString> call(String method, String tag, ByteString payload, long timeoutNanos,
            Runnable whenWritten) {
        CompletableFuture<ByteString> result = new CompletableFuture<>();
        if (payload.size() > config.maxPayload()) {
            refused(result, whenWritten, new RpcException(RpcStatus.RESOURCE_EXHAUSTED,
                    "payload: " + payload.size() + " bytes (limit: " + config.maxPayload() + ")"));
            return result;
        }
        long boundedNanos = Math.min(timeoutNanos, RpcConfig.MAX_TIMEOUT.toNanos());
        EventLoop loop = session.eventLoop();
        if (loop.inEventLoop()) {
            start(method, tag, payload, boundedNanos, result, whenWritten);
        } else {
            try {
                loop.execute(() -> start(method, tag, payload, boundedNanos, result, whenWritten));
            } catch (RejectedExecutionException e) {
                refused(result, whenWritten, new RpcException(RpcStatus.UNAVAILABLE, "connection to " + remoteAddress()
                        + " is shutting down"));
            }
        }
        return result;
    }

    private void start(String method, String tag, ByteString payload, long timeoutNanos,
            CompletableFuture<ByteString> result, Runnable whenWritten) {
        if (closed) {
            refused(result, whenWritten, new RpcException(RpcStatus.UNAVAILABLE, "connection to " + remoteAddress()
                    + " closed"));
            return;
        }
        if (pending.size() >= config.maxInFlight()) {
            refused(result, whenWritten, new RpcException(RpcStatus.RESOURCE_EXHAUSTED,
                    "calls in flight: " + pending.size() + " (limit: " + config.maxInFlight() + ")"));
            return;
        }
        long id = ++nextId;
        PendingCall call = new PendingCall(id, method, tag, result, System.nanoTime());
        pending.put(id, call);
        clientMetrics.started();
        call.timer = session.eventLoop().schedule(call, timeoutNanos, TimeUnit.NANOSECONDS);
        Envelope request = Envelope.newBuilder().setId(id).setKind(Kind.REQUEST).setMethod(method)
                .setTimeoutMicros(Math.max(1, timeoutNanos / 1000)).setPayload(payload).build();
        ByteBuf encoded = EnvelopeCodec.encode(request, session);
        if (whenWritten == null) {
            session.reply(encoded);
        } else {
            session.reply(encoded, whenWritten);
        }
    }

    private static void refused(CompletableFuture<ByteString> result, Runnable whenWritten, RpcException why) {
        if (whenWritten != null) {
            whenWritten.run();
        }
        result.completeExceptionally(why);
    }

    /** False while this connection's peer is not reading what is queued for it. Thread-safe. */
    boolean isWritable() {
        return session.isWritable();
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
        clientMetrics.finished(call.tag, status, System.nanoTime() - call.startNanos);
    }

    private void onRequest(Envelope request) {
        long id = request.getId();
        boolean oneWay = request.getKind() == Kind.ONE_WAY;
        // Checked on the bytes first: a name is a map key and may become a meter tag.
        int methodBytes = request.getMethodBytes().size();
        if (methodBytes == 0 || methodBytes > MAX_METHOD_BYTES || request.getMethod().length() > RpcConfig.MAX_METHOD_LENGTH) {
            refuse(id, oneWay, RpcMetrics.UNKNOWN_METHOD, RpcStatus.INVALID_ARGUMENT, "method: " + methodBytes
                    + " bytes (expected: 1.." + RpcConfig.MAX_METHOD_LENGTH + " characters)");
            return;
        }
        String method = request.getMethod();
        String tag = router.meterTag(method);
        if (serving >= config.maxInFlight()) {
            refuse(id, oneWay, tag, RpcStatus.RESOURCE_EXHAUSTED,
                    "requests in flight: " + serving + " (limit: " + config.maxInFlight() + ")");
            return;
        }
        if (request.getPayload().size() > config.maxPayload()) {
            refuse(id, oneWay, tag, RpcStatus.RESOURCE_EXHAUSTED,
                    "payload: " + request.getPayload().size() + " bytes (limit: " + config.maxPayload() + ")");
            return;
        }
        long now = System.nanoTime();
        long deadline = request.getTimeoutMicros() == 0 ? 0 : now + timeoutNanos(request.getTimeoutMicros());
        serving++;
        serverMetrics.started();
        CompletionStage<ByteString> answer;
        try {
            answer = router.route(new RpcRequest(method, request.getPayload(), deadline, this));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        // An answer given while its request's read batch runs is held in check by backpressure on reading; a
        // later one (forwarded, or from an executor) is not, so it is checked against the caller's reading.
        boolean late = !(answer instanceof CompletableFuture<?> f && f.isDone());
        answer.whenComplete((payload, error) -> {
            EventLoop loop = session.eventLoop();
            if (loop.inEventLoop()) {
                answered(id, oneWay, tag, now, payload, error, late);
            } else {
                loop.execute(() -> answered(id, oneWay, tag, now, payload, error, late));
            }
        });
    }

    /**
     * A request's {@code timeout_micros} in nanoseconds, at most {@link RpcConfig#MAX_TIMEOUT}: the field is
     * unsigned 64-bit, so above 2^63 it reads negative, and above 2^53 it would overflow as nanoseconds.
     */
    static long timeoutNanos(long timeoutMicros) {
        long max = RpcConfig.MAX_TIMEOUT.toNanos();
        return timeoutMicros < 0 || timeoutMicros > max / 1000 ? max : timeoutMicros * 1000;
    }

    private void refuse(long id, boolean oneWay, String tag, RpcStatus status, String message) {
        serverMetrics.started();
        serverMetrics.finished(tag, status, 0);
        if (!oneWay) {
            respond(Envelope.newBuilder().setId(id).setKind(Kind.RESPONSE).setStatus(status.code()).setMessage(message)
                    .build());
        }
    }

    private void answered(long id, boolean oneWay, String tag, long startNanos, ByteString payload, Throwable error,
            boolean late) {
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
        } else if (late && !oneWay && !session.isWritable() && payload != null && !payload.isEmpty()) {
            // The caller is not reading its answers: they would queue here without bound (calls in flight times
            // payload). It gets the status, which is small, instead of the payload.
            status = RpcStatus.RESOURCE_EXHAUSTED;
            response.clearPayload().setStatus(status.code()).setMessage("answer of " + payload.size()
                    + " bytes not sent: the caller is not reading its answers");
        }
        serverMetrics.finished(tag, status, System.nanoTime() - startNanos);
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

    /** Closes at once, dropping what is queued: the peer stopped reading. Thread-safe. */
    void abort() {
        session.abort();
    }

    private final class PendingCall implements Runnable {
        final long id;
        final String method;
        final String tag;
        final CompletableFuture<ByteString> result;
        final long startNanos;
        ScheduledFuture<?> timer;

        PendingCall(long id, String method, String tag, CompletableFuture<ByteString> result, long startNanos) {
            this.id = id;
            this.method = method;
            this.tag = tag;
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
