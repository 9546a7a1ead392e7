package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.transport.FrameSession;
import java.util.ArrayList;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The calls one end of a connection makes: ids, the pending table, deadlines. Each call ends exactly
 * once: by its response, its deadline (a timer on the event loop), the caller's cancel, or the loss of
 * the connection, whichever removes it from the table first. A write that fails closes the channel, so
 * it ends the call as a connection loss. A response that finds no pending call is dropped and counted
 * in {@link #lateResponses}. State is event-loop confined; {@link #call} may be used from any thread.
 */
final class CallTable {
    private final FrameSession session;
    private final RpcConfig config;
    private final RpcMetrics metrics;
    private final LongObjectHashMap<PendingCall> pending = new LongObjectHashMap<>();
    private long nextId;
    private volatile boolean closed;
    private long lateResponses;

    CallTable(FrameSession session, RpcConfig config, RpcMetrics metrics) {
        this.session = session;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * Calls {@code method}, counted under {@code tag}; completes with the answer's payload, or fails with
     * an {@link RpcException}. Cancelling the future tells the callee. {@code whenWritten}, if not null,
     * runs once the request has left the outbound buffer, or at once if it is never written.
     */
    CompletableFuture<ByteString> call(String method, String tag, ByteString payload, long timeoutNanos,
            Runnable whenWritten) {
        CompletableFuture<ByteString> result = new CompletableFuture<>();
        if (payload.size() > config.maxPayload()) {
            refused(result, whenWritten, new RpcException(RpcStatus.RESOURCE_EXHAUSTED,
                    "payload: " + payload.size() + " bytes (limit: " + config.maxPayload() + ")"));
            return result;
        }
        long boundedNanos = Math.max(1, Math.min(timeoutNanos, RpcConfig.MAX_TIMEOUT.toNanos()));
        EventLoop loop = session.eventLoop();
        if (loop.inEventLoop()) {
            start(method, tag, payload, boundedNanos, result, whenWritten);
        } else {
            try {
                loop.execute(() -> start(method, tag, payload, boundedNanos, result, whenWritten));
            } catch (RejectedExecutionException e) {
                refused(result, whenWritten, new RpcException(RpcStatus.UNAVAILABLE, "connection to "
                        + session.remoteAddress() + " is shutting down"));
            }
        }
        return result;
    }

    private void start(String method, String tag, ByteString payload, long timeoutNanos,
            CompletableFuture<ByteString> result, Runnable whenWritten) {
        if (closed) {
            refused(result, whenWritten, new RpcException(RpcStatus.UNAVAILABLE, "connection to " + session.remoteAddress()
                    + " closed"));
            return;
        }
        if (pending.size() >= config.maxInFlight()) {
            refused(result, whenWritten, new RpcException(RpcStatus.RESOURCE_EXHAUSTED,
                    "calls in flight: " + pending.size() + " (limit: " + config.maxInFlight() + ")"));
            return;
        }
        if (result.isDone()) {
            // Cancelled by the caller before it left.
            if (whenWritten != null) {
                whenWritten.run();
            }
            return;
        }
        long id = ++nextId;
        PendingCall call = new PendingCall(id, method, tag, result, System.nanoTime());
        pending.put(id, call);
        metrics.started();
        call.timer = session.eventLoop().schedule(call, timeoutNanos, TimeUnit.NANOSECONDS);
        // The caller's cancel ends the call here and tells the callee, which stops work nobody waits for.
        result.whenComplete((v, e) -> {
            if (e instanceof CancellationException) {
                cancelled(call);
            }
        });
        Envelope request = Envelope.newBuilder().setId(id).setKind(Kind.REQUEST).setMethod(method)
                .setTimeoutMicros(Math.max(1, timeoutNanos / 1000)).setPayload(payload).build();
        ByteBuf encoded = EnvelopeCodec.encode(request, session);
        session.send(encoded, whenWritten);
    }

    private void cancelled(PendingCall call) {
        if (!session.eventLoop().inEventLoop()) {
            session.eventLoop().execute(() -> cancelled(call));
            return;
        }
        if (pending.remove(call.id) == call) {
            call.timer.cancel(false);
            metrics.finished(call.tag, RpcStatus.CANCELLED, System.nanoTime() - call.startNanos);
            if (!closed) {
                session.send(EnvelopeCodec.encode(Envelope.newBuilder().setId(call.id).setKind(Kind.CANCEL).build(),
                        session));
            }
        }
    }

    private static void refused(CompletableFuture<ByteString> result, Runnable whenWritten, RpcException why) {
        if (whenWritten != null) {
            whenWritten.run();
        }
        result.completeExceptionally(why);
    }

    /** Sends {@code method} one way: no answer, no deadline. */
    void send(String method, ByteString payload) {
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
            session.send(EnvelopeCodec.encode(message, session));
        }
    }

    void onResponse(Envelope response) {
        PendingCall call = pending.remove(response.getId());
        if (call == null) {
            lateResponses++;
            return;
        }
        call.timer.cancel(false);
        RpcStatus status = RpcStatus.of(response.getStatus());
        metrics.finished(call.tag, status, System.nanoTime() - call.startNanos);
        if (status == RpcStatus.OK) {
            call.result.complete(response.getPayload());
        } else {
            call.result.completeExceptionally(new RpcException(status, response.getMessage()));
        }
    }

    /** The connection is gone: every pending call fails now with {@code UNAVAILABLE}. */
    void connectionLost() {
        closed = true;
        if (pending.isEmpty()) {
            return;
        }
        RpcException lost = new RpcException(RpcStatus.UNAVAILABLE, "connection to " + session.remoteAddress() + " lost");
        ArrayList<PendingCall> calls = new ArrayList<>(pending.values());
        pending.clear();
        for (PendingCall call : calls) {
            call.timer.cancel(false);
            metrics.finished(call.tag, RpcStatus.UNAVAILABLE, System.nanoTime() - call.startNanos);
            call.result.completeExceptionally(lost);
        }
    }

    boolean isClosed() {
        return closed;
    }

    int pending() {
        return pending.size();
    }

    long lateResponses() {
        return lateResponses;
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

        /** The deadline: ends the call unless a response, a cancel or the connection's loss ended it first. */
        @Override
        public void run() {
            if (pending.remove(id) == this) {
                metrics.finished(tag, RpcStatus.DEADLINE_EXCEEDED, System.nanoTime() - startNanos);
                result.completeExceptionally(new RpcException(RpcStatus.DEADLINE_EXCEEDED,
                        method + " after " + (System.nanoTime() - startNanos) / 1_000_000 + " ms"));
            }
        }
    }
}
