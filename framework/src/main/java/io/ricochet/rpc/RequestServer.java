package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.util.collection.LongObjectHashMap;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.transport.session.FrameSession;
import java.util.ArrayList;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The requests the peer sends on one connection: checks them, routes them, answers them, and tells
 * their handlers when the caller stops waiting. Event-loop confined; answers may complete on any thread
 * and hop to the loop.
 *
 * <p>Longer than 300 lines: every way a request ends (refused, answered with bytes or a message, cancelled, its
 * connection lost) goes through the one serving table, so they are kept where they can be seen together. A
 * connection's authentication (its deadline, its place among those waiting, its one guess) is {@link ConnectionAuth}'s.
 */
final class RequestServer {
    /** UTF-8 bytes {@link RpcConfig#MAX_METHOD_LENGTH} characters can take. */
    private static final int MAX_METHOD_BYTES = 3 * RpcConfig.MAX_METHOD_LENGTH;

    private final FrameSession session;
    private final RpcConfig config;
    private final RequestRouter router;
    private final RpcMetrics metrics;
    private final Outbound out;
    private final PeerSupport peer;
    /** Null when the server admits every connection. */
    private final ConnectionAuth auth;
    /** Requests being served, by the caller's id: a cancel finds its request here. */
    private final LongObjectHashMap<RpcRequest> serving = new LongObjectHashMap<>();
    /** Requests being served, one-way ones included: the limit counts these. */
    private int inFlight;
    private boolean closed;
    /** The last method name heard, and its bytes: a connection mostly calls the same few methods. */
    private ByteString lastMethodBytes = ByteString.EMPTY;
    private String lastMethod = "";
    private final Envelope.Builder responseBuilder = Envelope.newBuilder();

    /** On the event loop, as the connection opens: the authentication deadline starts here. */
    RequestServer(Outbound out, PeerSupport peer, FrameSession session, RpcConfig config, RequestRouter router,
            RpcMetrics metrics, AuthGate gate) {
        this.out = out;
        this.peer = peer;
        this.session = session;
        this.config = config;
        this.router = router;
        this.metrics = metrics;
        // The authentication deadline starts here, as the connection opens.
        this.auth = gate == null ? null : new ConnectionAuth(gate, session, metrics);
    }

    /** @param caller the connection it came on, as its handler sees it ({@link RpcRequest#caller}); not called here */
    void onRequest(Envelope request, RpcConnection caller) {
        long id = request.getId();
        boolean oneWay = request.getKind() == Kind.ONE_WAY;
        // Checked on the bytes first: a name is a map key and may become a meter tag.
        int methodBytes = request.getMethodBytes().size();
        if (methodBytes == 0 || methodBytes > MAX_METHOD_BYTES) {
            refuse(id, oneWay, RpcMetrics.UNKNOWN_METHOD, RpcStatus.INVALID_ARGUMENT, "method: " + methodBytes
                    + " bytes (expected: 1.." + RpcConfig.MAX_METHOD_LENGTH + " characters)");
            return;
        }
        String method = methodName(request.getMethodBytes());
        if (method.length() > RpcConfig.MAX_METHOD_LENGTH) {
            refuse(id, oneWay, RpcMetrics.UNKNOWN_METHOD, RpcStatus.INVALID_ARGUMENT, "method: " + methodBytes
                    + " bytes (expected: 1.." + RpcConfig.MAX_METHOD_LENGTH + " characters)");
            return;
        }
        if (method.equals(BuiltIn.PING)) {
            // A keepalive: answered here, by either end, and not counted as a call. Only ends that know
            // CANCEL ping, so the peer may be sent them from now on.
            peer.understandsCancel();
            if (!oneWay) {
                respond(response(id));
            }
            return;
        }
        if (method.equals(BuiltIn.AUTH)) {
            authenticate(id, oneWay, request.getPayload());
            return;
        }
        String tag = router.meterTag(method);
        if (auth != null && !auth.authenticated()) {
            auth.refusedBeforeAuthenticating(method);
            refuse(id, oneWay, tag, RpcStatus.UNAUTHENTICATED, "'" + method + "': authenticate first (" + BuiltIn.AUTH + ")");
            return;
        }
        if (session.isDraining()) {
            // A graceful stop: pings above and answers to this end's own calls still flow, new work does not.
            refuse(id, oneWay, tag, RpcStatus.UNAVAILABLE, "server is stopping");
            return;
        }
        if (inFlight >= config.maxInFlight()) {
            refuse(id, oneWay, tag, RpcStatus.RESOURCE_EXHAUSTED,
                    "requests in flight: " + inFlight + " (limit: " + config.maxInFlight() + ")");
            return;
        }
        if (!oneWay && serving.containsKey(id)) {
            refuse(id, false, tag, RpcStatus.INVALID_ARGUMENT, "id: " + id + " (expected: one not in flight)");
            return;
        }
        if (request.getPayload().size() > config.maxPayload()) {
            refuse(id, oneWay, tag, RpcStatus.RESOURCE_EXHAUSTED,
                    "payload: " + request.getPayload().size() + " bytes (limit: " + config.maxPayload() + ")");
            return;
        }
        long startNanos = System.nanoTime();
        long deadline = request.getTimeoutMicros() == 0 ? 0 : startNanos + timeoutNanos(request.getTimeoutMicros());
        RpcRequest served = new RpcRequest(method, request.getPayload(), deadline, caller);
        if (!oneWay) {
            serving.put(id, served);
        }
        inFlight++;
        metrics.started();
        Answer answer;
        try {
            answer = router.route(served);
            Objects.requireNonNull(answer.stage(), "the handler returned no stage");
        } catch (RuntimeException e) {
            answer = new Answer.Bytes(CompletableFuture.failedFuture(e));
        }
        if (answer instanceof Answer.Message message) {
            await(message.stage(), Delivery.MESSAGE, id, oneWay, served, tag, startNanos);
        } else {
            await(((Answer.Bytes) answer).stage(), Delivery.BYTES, id, oneWay, served, tag, startNanos);
        }
    }

    /**
     * Answers once {@code stage} completes: at once if it has (a synchronous handler), with no stage to hop through. An
     * answer given while its request's read batch runs is held in check by backpressure on reading; a later one
     * (forwarded, or from an executor) is not, so it is checked against the caller's reading.
     */
    private <T> void await(CompletionStage<? extends T> stage, Delivery<T> delivery, long id, boolean oneWay,
            RpcRequest served, String tag, long startNanos) {
        CompletableFuture<? extends T> now = Invocation.doneNow(stage);
        if (now != null) {
            Throwable error = failure(now);
            T answer = error == null ? now.join() : null;
            delivery.answered(this, id, oneWay, served, tag, startNanos, answer, error, false);
            return;
        }
        stage.whenComplete((answer, error) -> {
            EventLoop loop = session.eventLoop();
            if (loop.inEventLoop()) {
                delivery.answered(this, id, oneWay, served, tag, startNanos, answer, error, true);
            } else {
                loop.execute(() -> delivery.answered(this, id, oneWay, served, tag, startNanos, answer, error, true));
            }
        });
    }

    /** Where an answer of type {@code T} goes among {@link #answered}'s arguments: raw bytes, or a typed message. */
    private interface Delivery<T> {
        Delivery<ByteString> BYTES = (server, id, oneWay, served, tag, startNanos, bytes, error, late) ->
                server.answered(id, oneWay, served, tag, startNanos, bytes, null, error, late);
        Delivery<MessageLite> MESSAGE = (server, id, oneWay, served, tag, startNanos, message, error, late) ->
                server.answered(id, oneWay, served, tag, startNanos, null, message, error, late);

        void answered(RequestServer server, long id, boolean oneWay, RpcRequest served, String tag, long startNanos,
                T answer, Throwable error, boolean late);
    }

    /** How a completed stage failed, as {@code join} throws it; null if it did not. */
    private static Throwable failure(CompletableFuture<?> done) {
        if (!done.isCompletedExceptionally()) {
            return null;
        }
        try {
            done.join();
            return null;
        } catch (CompletionException | CancellationException e) {
            return e;
        }
    }

    /** {@code bytes} as a name: the last one's String when they are the same, so no decoding and its hash is kept. */
    private String methodName(ByteString bytes) {
        if (!bytes.equals(lastMethodBytes)) {
            lastMethodBytes = bytes;
            lastMethod = bytes.toStringUtf8();
        }
        return lastMethod;
    }

    /**
     * The built-in {@code rpc.auth}: a server without an authenticator admits any credential; one with it
     * closes the connection after answering a wrong one, so a peer gets one guess per connection.
     */
    private void authenticate(long id, boolean oneWay, ByteString credential) {
        if (auth == null || auth.accept(credential)) {
            metrics.started();
            metrics.finished(BuiltIn.AUTH, RpcStatus.OK, 0);
            if (!oneWay) {
                respond(response(id));
            }
            return;
        }
        refuse(id, oneWay, BuiltIn.AUTH, RpcStatus.UNAUTHENTICATED, "credentials refused");
        session.close();
    }

    /** The caller no longer waits for request {@code id}: its handler hears of it, and its answer is not sent. */
    void onCancel(long id) {
        RpcRequest request = serving.remove(id);
        if (request != null) {
            request.cancel();
        }
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
        metrics.started();
        metrics.finished(tag, status, 0);
        if (!oneWay) {
            respond(response(id).setStatus(status.code()).setMessage(message));
        }
    }

    /** The handler's answer: {@code bytes} or {@code message} (see {@link Answer}), or neither with {@code error}. */
    private void answered(long id, boolean oneWay, RpcRequest request, String tag, long startNanos, ByteString bytes,
            MessageLite message, Throwable error, boolean late) {
        // Gone from the table if the caller sent CANCEL: it waits for nothing, so nothing is sent.
        boolean awaited = !oneWay && serving.get(id) == request;
        if (awaited) {
            serving.remove(id);
        }
        inFlight--;
        request.answered();
        Envelope.Builder response = response(id);
        int size = error != null ? 0 : message != null ? message.getSerializedSize() : bytes != null ? bytes.size() : 0;
        RpcStatus status = RpcStatus.OK;
        if (error != null) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof RpcException e) {
                status = e.status();
                response.setMessage(truncate(e.detail()));
            } else if (cause instanceof CancellationException) {
                // A forwarded call the agent cancelled for its caller, or a handler's stage cancelled.
                status = RpcStatus.CANCELLED;
                response.setMessage("cancelled");
            } else {
                status = RpcStatus.INTERNAL;
                response.setMessage(truncate(cause.toString()));
            }
        } else if (size > config.maxPayload()) {
            status = RpcStatus.RESOURCE_EXHAUSTED;
            response.setMessage("answer payload: " + size + " bytes (limit: " + config.maxPayload() + ")");
        } else if (late && !oneWay && !session.isWritable() && size > 0) {
            // The caller is not reading its answers: they would queue here without bound (calls in flight times
            // payload). It gets the status, which is small, instead of the payload.
            status = RpcStatus.RESOURCE_EXHAUSTED;
            response.setMessage("answer of " + size + " bytes not sent: the caller is not reading its answers");
        }
        ByteBuf encoded = null;
        if (awaited && !closed) {
            try {
                response.setStatus(status.code());
                encoded = status != RpcStatus.OK ? EnvelopeCodec.encode(response, null, session)
                        : message != null ? EnvelopeCodec.encodeMessage(response, message, session)
                        : EnvelopeCodec.encode(response, bytes, session);
            } catch (RuntimeException e) {
                // A message that does not serialize: the caller hears INTERNAL, as when its handler fails.
                status = RpcStatus.INTERNAL;
                encoded = EnvelopeCodec.encode(response.clearPayload().setStatus(status.code())
                        .setMessage(truncate("answer not encoded: " + e)), null, session);
            }
        }
        metrics.finishedSince(tag, status, startNanos);
        if (encoded != null) {
            out.write(encoded, null);
        }
    }

    /** Sends {@code header}, which carries no payload. */
    private void respond(Envelope.Builder header) {
        if (!closed) {
            out.write(EnvelopeCodec.encode(header, null, session), null);
        }
    }

    /**
     * A response's header for {@code id}, in the one builder this connection reuses: answers are built one at a time on
     * the loop, and each is built into its envelope before the next begins.
     */
    private Envelope.Builder response(long id) {
        return responseBuilder.clear().setId(id).setKind(Kind.RESPONSE);
    }

    private static String truncate(String message) {
        return message.length() <= RpcConfig.MAX_METHOD_LENGTH ? message : message.substring(0, RpcConfig.MAX_METHOD_LENGTH);
    }

    /** Requests being served now, one-way ones included. */
    int serving() {
        return inFlight;
    }

    /** The connection is gone: the handlers of requests still being served hear that nobody waits. */
    void connectionLost() {
        closed = true;
        if (auth != null) {
            auth.closed();
        }
        for (RpcRequest request : new ArrayList<>(serving.values())) {
            request.cancel();
        }
    }
}
