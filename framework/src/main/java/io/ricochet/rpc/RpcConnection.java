package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.transport.FrameHandler;
import io.ricochet.transport.FrameSession;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RPC connection, at either end: the frame handler of its session, made for it alone. It reads
 * envelopes and hands requests to its {@link RequestServer} and responses to its {@link CallTable}, so
 * the server can call back the clients connected to it (an agent does). Calls may be made from any
 * thread; everything else runs on the connection's event loop.
 *
 * <p>Futures complete on the event loop: callbacks must not block it (use the {@code *Async} variants
 * with an executor for blocking work). With keepalive on, a connection that has heard nothing for the
 * keepalive interval pings its peer, and one whose ping goes unanswered for another interval is closed.
 */
public final class RpcConnection implements FrameHandler {
    /** The built-in method a keepalive calls; every RPC end answers it. */
    public static final String PING = "rpc.ping";
    private static final Logger log = LoggerFactory.getLogger(RpcConnection.class);

    private final RpcConfig config;
    private final RequestRouter router;
    private final RpcMetrics clientMetrics;
    private final RpcMetrics serverMetrics;
    private final long keepaliveNanos;
    private final Consumer<RpcConnection> onOpen;
    private final Consumer<RpcConnection> onClose;
    private volatile FrameSession session;
    private volatile CallTable calls;
    private RequestServer server;
    private boolean heard;
    private ScheduledFuture<?> keepalive;

    RpcConnection(RpcConfig config, RequestRouter router, RpcMetrics clientMetrics, RpcMetrics serverMetrics,
            Duration keepalive, Consumer<RpcConnection> onOpen, Consumer<RpcConnection> onClose) {
        this.config = config;
        this.router = router;
        this.clientMetrics = clientMetrics;
        this.serverMetrics = serverMetrics;
        this.keepaliveNanos = keepalive.toNanos();
        this.onOpen = onOpen;
        this.onClose = onClose;
    }

    @Override
    public void sessionOpened(FrameSession opened) {
        this.session = opened;
        this.calls = new CallTable(opened, config, clientMetrics);
        this.server = new RequestServer(opened, config, router, serverMetrics, this);
        if (keepaliveNanos > 0) {
            keepalive = opened.eventLoop().scheduleAtFixedRate(this::keepalive, keepaliveNanos, keepaliveNanos,
                    TimeUnit.NANOSECONDS);
        }
        onOpen.accept(this);
    }

    @Override
    public void onFrame(FrameSession s, ByteBuf body) {
        heard = true;
        Envelope envelope;
        try {
            envelope = EnvelopeCodec.decode(body);
        } catch (InvalidProtocolBufferException e) {
            log.debug("closing {}: not an RPC envelope: {}", s.remoteAddress(), e.getMessage());
            s.close();
            return;
        }
        switch (envelope.getKind()) {
            case RESPONSE -> calls.onResponse(envelope);
            case REQUEST, ONE_WAY -> server.onRequest(envelope);
            case CANCEL -> server.onCancel(envelope.getId());
            default -> s.close();
        }
    }

    /** Requests being served or calls waiting for answers: a graceful stop lets them finish. */
    @Override
    public boolean owesReplies(FrameSession s) {
        return server.serving() > 0 || calls.pending() > 0;
    }

    @Override
    public void sessionClosed(FrameSession s) {
        if (keepalive != null) {
            keepalive.cancel(false);
        }
        calls.connectionLost();
        server.connectionLost();
        onClose.accept(this);
    }

    private void keepalive() {
        if (heard) {
            heard = false;
            return;
        }
        call(PING, ByteString.EMPTY, keepaliveNanos).whenComplete((v, e) -> {
            if (e instanceof RpcException r && r.status() == RpcStatus.DEADLINE_EXCEEDED) {
                log.info("closing {}: no answer to a keepalive ping for {} ms", remoteAddress(), keepaliveNanos / 1_000_000);
                abort();
            }
        });
    }

    /** Calls {@code method} with the configured default deadline. */
    public CompletableFuture<ByteString> call(String method, ByteString payload) {
        return call(method, payload, config.defaultTimeout());
    }

    /**
     * Calls {@code method}; the future completes with the answer's payload or fails with an
     * {@link RpcException}. Cancelling the future tells the callee. Thread-safe.
     */
    public CompletableFuture<ByteString> call(String method, ByteString payload, Duration timeout) {
        return call(method, payload, timeout.toNanos());
    }

    /** As {@link #call(String, ByteString, Duration)}; a deadline over {@link RpcConfig#MAX_TIMEOUT} is that. */
    public CompletableFuture<ByteString> call(String method, ByteString payload, long timeoutNanos) {
        return calls().call(method, method, payload, timeoutNanos, null);
    }

    /** Calls a typed method with the configured default deadline. */
    public <Req extends MessageLite, Resp extends MessageLite> CompletableFuture<Resp> call(MethodDescriptor<Req, Resp> method,
            Req request) {
        return call(method, request, config.defaultTimeout());
    }

    /** Calls a typed method; an answer that is not its response type fails with {@code INTERNAL}. */
    public <Req extends MessageLite, Resp extends MessageLite> CompletableFuture<Resp> call(MethodDescriptor<Req, Resp> method,
            Req request, Duration timeout) {
        CompletableFuture<ByteString> raw = call(method.name(), request.toByteString(), timeout);
        CompletableFuture<Resp> typed = raw.thenApply(method::parseResponse);
        // Cancelling the typed future cancels the call.
        typed.whenComplete((v, e) -> {
            if (typed.isCancelled()) {
                raw.cancel(false);
            }
        });
        return typed;
    }

    /**
     * The agent's hop to a route's owner: counted under the route tag, and {@code whenWritten} runs once
     * the request has left the outbound buffer, or at once if it is never written.
     */
    CompletableFuture<ByteString> relay(String uri, ByteString payload, long timeoutNanos, Runnable whenWritten) {
        return calls().call(uri, RpcMetrics.AGENT_ROUTE, payload, timeoutNanos, whenWritten);
    }

    /** Sends {@code method} one way: no answer, no deadline. Thread-safe. */
    public void send(String method, ByteString payload) {
        calls().send(method, payload);
    }

    private CallTable calls() {
        CallTable table = calls;
        if (table == null) {
            throw new IllegalStateException("call: the connection is not open yet");
        }
        return table;
    }

    /** False while this connection's peer is not reading what is queued for it. Thread-safe. */
    boolean isWritable() {
        return session.isWritable();
    }

    /** The event loop this connection's state and callbacks live on. */
    public EventLoop eventLoop() {
        return session.eventLoop();
    }

    public boolean isOpen() {
        CallTable table = calls;
        return table != null && !table.isClosed();
    }

    public SocketAddress remoteAddress() {
        return session.remoteAddress();
    }

    /** Responses that came after their call's deadline and were dropped. Event-loop confined. */
    public long lateResponses() {
        return calls.lateResponses();
    }

    /** Flushes what is owed and closes; pending calls then fail with {@code UNAVAILABLE}. */
    public void close() {
        session.close();
    }

    /** Closes at once, dropping what is queued: the peer stopped reading. Thread-safe. */
    void abort() {
        session.abort();
    }
}
