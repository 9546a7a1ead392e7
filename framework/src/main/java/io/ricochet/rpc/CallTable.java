package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.config.Checks;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.transport.session.FrameSession;
import java.util.ArrayList;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The calls one end of a connection makes: ids, the pending table, deadlines. Each call ends exactly
 * once: by its response, its deadline, the caller's cancel, or the loss of the connection, whichever removes it
 * from the table first. Deadlines share one timer per connection, set for the earliest pending deadline: calls made
 * with the same timeout have rising deadlines, so the timer is set about once per timeout, not once per call. A
 * write that fails closes the channel, so it ends the call as a connection loss. A response that finds no pending
 * call is dropped and counted in {@link #lateResponses}. State is event-loop confined; {@link #call} and
 * {@link #send} may be used from any thread.
 *
 * <p>A cancel is told to the callee through {@link PeerSupport}, which knows whether the peer understands one.
 *
 * <p>Longer than 300 lines: the ways a call ends race for one pending table and one timer, so they are kept in one
 * place where each can be seen to remove the call once.
 */
final class CallTable {
    /**
     * The timeout of a call sent with none ({@code timeout_micros} 0): an agent's hop for a caller that gave none. Its
     * entry here still ends at {@link RpcConfig#MAX_TIMEOUT}, the longest wait anything honours.
     */
    static final long NO_DEADLINE = Long.MIN_VALUE;

    private final Outbound out;
    private final PeerSupport peer;
    private final FrameSession session;
    private final RpcConfig config;
    private final RpcMetrics metrics;
    private final LongObjectHashMap<PendingCall> pending = new LongObjectHashMap<>();
    /** The deadline sweep, set for {@link #sweepAt}; null when none is set. */
    private ScheduledFuture<?> sweep;
    private long sweepAt;
    private long nextId;
    private volatile boolean closed;
    private long lateResponses;

    CallTable(Outbound out, PeerSupport peer, FrameSession session, RpcConfig config, RpcMetrics metrics) {
        this.out = out;
        this.peer = peer;
        this.session = session;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * Calls {@code method}, counted under {@code tag}; completes with the answer's payload, or fails with
     * an {@link RpcException}. Cancelling the future tells the callee. {@code whenWritten}, if not null,
     * runs once the request has left the outbound buffer, or at once if it is never written. A timeout of
     * {@link #NO_DEADLINE} sends none; any other is taken as 1 ns to {@link RpcConfig#MAX_TIMEOUT}.
     */
    CompletableFuture<ByteString> call(String method, String tag, ByteString payload, long timeoutNanos,
            Runnable whenWritten) {
        CallFuture result = new CallFuture();
        RpcException invalid = check(method, payload);
        if (invalid != null) {
            refused(result, whenWritten, invalid);
            return result;
        }
        boolean none = timeoutNanos == NO_DEADLINE;
        long boundedNanos = none ? RpcConfig.MAX_TIMEOUT.toNanos()
                : Math.max(1, Math.min(timeoutNanos, RpcConfig.MAX_TIMEOUT.toNanos()));
        EventLoop loop = session.eventLoop();
        if (loop.inEventLoop()) {
            start(method, tag, payload, boundedNanos, none, result, whenWritten);
        } else {
            try {
                loop.execute(() -> start(method, tag, payload, boundedNanos, none, result, whenWritten));
            } catch (RejectedExecutionException e) {
                refused(result, whenWritten, shuttingDown());
            }
        }
        return result;
    }

    /** What makes a message unsendable, checked before it is encoded: an encoder failure would close the connection. */
    private RpcException check(String method, ByteString payload) {
        Checks.notNull("method", method);
        Checks.notNull("payload", payload);
        if (method.isEmpty() || method.length() > RpcConfig.MAX_METHOD_LENGTH) {
            return new RpcException(RpcStatus.INVALID_ARGUMENT, "method: " + method.length() + " characters (expected: 1.."
                    + RpcConfig.MAX_METHOD_LENGTH + ")");
        }
        if (payload.size() > config.maxPayload()) {
            return new RpcException(RpcStatus.RESOURCE_EXHAUSTED,
                    "payload: " + payload.size() + " bytes (limit: " + config.maxPayload() + ")");
        }
        return null;
    }

    private RpcException shuttingDown() {
        return new RpcException(RpcStatus.UNAVAILABLE, "connection to " + session.remoteAddress() + " is shutting down");
    }

    private RpcException closedNow() {
        return new RpcException(RpcStatus.UNAVAILABLE, "connection to " + session.remoteAddress() + " closed");
    }

    /** @param none whether the request says it has no deadline; its entry still ends after {@code timeoutNanos} */
    private void start(String method, String tag, ByteString payload, long timeoutNanos, boolean none, CallFuture result,
            Runnable whenWritten) {
        if (closed) {
            refused(result, whenWritten, closedNow());
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
        long now = System.nanoTime();
        PendingCall call = new PendingCall(id, method, tag, result, now, now + timeoutNanos);
        pending.put(id, call);
        metrics.started();
        sweepBy(call.deadlineNanos);
        Envelope request = Envelope.newBuilder().setId(id).setKind(Kind.REQUEST).setMethod(method)
                .setTimeoutMicros(none ? 0 : Math.max(1, timeoutNanos / 1000)).setPayload(payload).build();
        ByteBuf encoded = EnvelopeCodec.encode(request, session);
        out.write(encoded, whenWritten);
        // Only now: a cancel that lands while the call is being set up must not send CANCEL ahead of REQUEST.
        // The caller's cancel ends the call here and tells the callee, which stops work nobody waits for.
        result.call = call;
        if (result.isCancelled()) {
            cancelled(call);
        }
    }

    /** Makes sure the sweep runs by {@code deadline}: sets it if none is set, or sets it earlier. */
    private void sweepBy(long deadline) {
        if (sweep != null && deadline - sweepAt >= 0) {
            return;
        }
        if (sweep != null) {
            sweep.cancel(false);
        }
        sweepAt = deadline;
        sweep = session.eventLoop().schedule(this::sweep, Math.max(0, deadline - System.nanoTime()),
                TimeUnit.NANOSECONDS);
    }

    /** Ends the calls past their deadline, then sets the sweep for the earliest deadline left. */
    private void sweep() {
        sweep = null;
        if (pending.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        ArrayList<PendingCall> expired = new ArrayList<>();
        long earliest = Long.MAX_VALUE;
        boolean any = false;
        for (PendingCall call : pending.values()) {
            if (call.deadlineNanos - now <= 0) {
                expired.add(call);
            } else if (!any || call.deadlineNanos - earliest < 0) {
                earliest = call.deadlineNanos;
                any = true;
            }
        }
        for (PendingCall call : expired) {
            call.expire(now);
        }
        if (any) {
            sweepBy(earliest);
        }
    }

    private void cancelled(PendingCall call) {
        if (!session.eventLoop().inEventLoop()) {
            try {
                session.eventLoop().execute(() -> cancelled(call));
            } catch (RejectedExecutionException e) {
                // The loop is gone, and the connection with it: the loss ends the call.
            }
            return;
        }
        if (pending.remove(call.id) == call) {
            metrics.finishedSince(call.tag, RpcStatus.CANCELLED, call.startNanos);
            if (!closed) {
                peer.cancelled(call.id);
            }
        }
    }

    private static void refused(CompletableFuture<ByteString> result, Runnable whenWritten, RpcException why) {
        if (whenWritten != null) {
            whenWritten.run();
        }
        result.completeExceptionally(why);
    }

    /**
     * Sends {@code method} one way: no answer, no deadline. Completes once it is handed to the open
     * connection, or fails with an {@link RpcException}, which leaves the connection as it was.
     */
    CompletableFuture<Void> send(String method, ByteString payload) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        RpcException invalid = check(method, payload);
        if (invalid != null) {
            sent.completeExceptionally(invalid);
            return sent;
        }
        Envelope message = Envelope.newBuilder().setKind(Kind.ONE_WAY).setMethod(method).setPayload(payload).build();
        EventLoop loop = session.eventLoop();
        if (loop.inEventLoop()) {
            sendNow(message, sent);
        } else {
            try {
                loop.execute(() -> sendNow(message, sent));
            } catch (RejectedExecutionException e) {
                sent.completeExceptionally(shuttingDown());
            }
        }
        return sent;
    }

    private void sendNow(Envelope message, CompletableFuture<Void> sent) {
        if (closed) {
            sent.completeExceptionally(closedNow());
            return;
        }
        out.write(EnvelopeCodec.encode(message, session), null);
        sent.complete(null);
    }

    void onResponse(Envelope response) {
        if (response.getId() == BuiltIn.PING_ID) {
            peer.pingAnswered(response.getStatusValue() == 0);
            return;
        }
        PendingCall call = pending.remove(response.getId());
        if (call == null) {
            lateResponses++;
            return;
        }
        RpcStatus status = RpcStatus.of(response.getStatus());
        metrics.finishedSince(call.tag, status, call.startNanos);
        if (status == RpcStatus.OK) {
            call.result.complete(response.getPayload());
        } else {
            call.result.completeExceptionally(new RpcException(status, response.getMessage()));
        }
    }

    /** The connection is gone, or its peer is: every pending call fails now with {@code UNAVAILABLE}. Idempotent. */
    void connectionLost() {
        closed = true;
        if (sweep != null) {
            sweep.cancel(false);
            sweep = null;
        }
        if (pending.isEmpty()) {
            return;
        }
        RpcException lost = new RpcException(RpcStatus.UNAVAILABLE, "connection to " + session.remoteAddress() + " lost");
        ArrayList<PendingCall> calls = new ArrayList<>(pending.values());
        pending.clear();
        for (PendingCall call : calls) {
            metrics.finishedSince(call.tag, RpcStatus.UNAVAILABLE, call.startNanos);
            call.result.completeExceptionally(lost);
        }
    }

    /** This end is closing the connection: nothing new goes out, and what is pending fails at the loss. Thread-safe. */
    void closing() {
        closed = true;
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

    private final class PendingCall {
        final long id;
        final String method;
        final String tag;
        final CompletableFuture<ByteString> result;
        final long startNanos;
        final long deadlineNanos;

        PendingCall(long id, String method, String tag, CompletableFuture<ByteString> result, long startNanos,
                long deadlineNanos) {
            this.id = id;
            this.method = method;
            this.tag = tag;
            this.result = result;
            this.startNanos = startNanos;
            this.deadlineNanos = deadlineNanos;
        }

        /** The deadline has passed: ends the call, which no response, cancel or loss ended first. */
        void expire(long now) {
            if (pending.remove(id) == this) {
                metrics.finished(tag, RpcStatus.DEADLINE_EXCEEDED, now - startNanos);
                result.completeExceptionally(new RpcException(RpcStatus.DEADLINE_EXCEEDED,
                        method + " after " + (now - startNanos) / 1_000_000 + " ms"));
            }
        }
    }

    /**
     * A call's future, which tells its table when the caller cancels it (by {@code cancel} or by completing it with a
     * {@link CancellationException}) without a completion stage of its own per call.
     */
    private final class CallFuture extends CompletableFuture<ByteString> {
        /** Set on the event loop once the request is written; a cancel before that is seen there. */
        volatile PendingCall call;

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) {
                tell();
            }
            return cancelled;
        }

        @Override
        public boolean completeExceptionally(Throwable ex) {
            boolean completed = super.completeExceptionally(ex);
            if (completed && ex instanceof CancellationException) {
                tell();
            }
            return completed;
        }

        private void tell() {
            PendingCall c = call;
            if (c != null) {
                cancelled(c);
            }
        }
    }
}
