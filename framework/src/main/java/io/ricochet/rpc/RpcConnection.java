package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RPC connection, at either end. It reads envelopes and hands requests to its {@link RequestServer}
 * and responses to its {@link CallTable}, so the server can call back the clients connected to it (an
 * agent does). Both halves write through the {@link Outbound} port it gives them and share what the peer is known
 * to support ({@link PeerSupport}); neither calls back into this class. Calls may be made from any thread;
 * everything else runs on the connection's event loop.
 *
 * <p>Futures complete on the event loop: callbacks must not block it (use the {@code *Async} variants
 * with an executor for blocking work). With keepalive on, a connection that has sent nothing, or heard
 * nothing, for the keepalive interval pings its peer (which resets the peer's idle timeout), and one
 * that then hears nothing at all for another interval is closed.
 *
 * <p>Longer than 300 lines: it is both the public face of a connection (the call overloads, untyped and typed) and the
 * event-loop state behind it (opening, closing); requests and calls themselves are already in
 * {@link RequestServer} and {@link CallTable}, and the keepalive's clock in {@link Keepalive}.
 */
public final class RpcConnection {
    /** The built-in method a keepalive calls; every RPC end answers it. */
    public static final String PING = BuiltIn.PING;
    /** The built-in method a client authenticates with, once, before its other calls (see {@link RpcAuthenticator}). */
    public static final String AUTH = BuiltIn.AUTH;
    private static final Logger log = LoggerFactory.getLogger(RpcConnection.class);

    private final RpcConfig config;
    private final RequestRouter router;
    private final RpcMetrics clientMetrics;
    private final RpcMetrics serverMetrics;
    private final long keepaliveNanos;
    private final boolean dialer;
    private final AuthGate gate;
    private final Consumer<RpcConnection> onOpen;
    private final Consumer<RpcConnection> onInputEnded;
    private final Consumer<RpcConnection> onClose;
    private final Handler handler = new Handler();
    private volatile FrameSession session;
    private volatile CallTable calls;
    private RequestServer server;
    private PeerSupport peer;
    /** The keepalive clock, from the open on; it notes every frame each way, so even a dialer without keepalive has one. */
    private Keepalive keepalive;
    private ScheduledFuture<?> keepaliveChecks;
    /** The peer can send nothing more, so no call of this end can be answered: set once, on the event loop. */
    private boolean inputEnded;

    /**
     * @param keepalive {@link Duration#ZERO} for none
     * @param dialer    whether this end connected: it pings once at once, and the answer says whether the
     *                  peer understands {@code CANCEL} (older ends close the connection on it)
     * @param gate      who may use this end's methods, and how long a connection has to say who it is; null for anyone
     * @param onInputEnded runs once the peer can send nothing more (it ended its stream, or this end began to close),
     *                  before this end's calls fail: an agent drops the connection's routes there, so a caller told
     *                  {@code UNAVAILABLE} finds them gone
     * @param onClose   runs once the connection has closed
     */
    RpcConnection(RpcConfig config, RequestRouter router, RpcMetrics clientMetrics, RpcMetrics serverMetrics,
            Duration keepalive, boolean dialer, AuthGate gate, Consumer<RpcConnection> onOpen,
            Consumer<RpcConnection> onInputEnded, Consumer<RpcConnection> onClose) {
        this.config = config;
        this.router = router;
        this.clientMetrics = clientMetrics;
        this.serverMetrics = serverMetrics;
        this.keepaliveNanos = keepalive.toNanos();
        this.dialer = dialer;
        this.gate = gate;
        this.onOpen = onOpen;
        this.onInputEnded = onInputEnded;
        this.onClose = onClose;
    }

    /** The transport's view of this connection; kept apart so the frame callbacks are not public API. */
    FrameHandler frameHandler() {
        return handler;
    }

    /** The transport's callbacks, and the port the halves write through: one object, made once per connection. */
    private final class Handler implements FrameHandler, Outbound {
        @Override
        public void write(ByteBuf envelope, Runnable whenWritten) {
            RpcConnection.this.write(envelope, whenWritten);
        }

        @Override
        public void sessionOpened(FrameSession opened) {
            opened(opened);
        }

        @Override
        public void onFrame(FrameSession s, ByteBuf body) {
            received(s, body);
        }

        /**
         * Requests being served; and, in a graceful stop, this end's calls waiting for answers, which the peer can still
         * give. They do not hold off the idle timeout: a peer silent for that long with our calls pending (an agent's
         * hops, which may have no deadline) is gone, and the close fails them; a live client pings (keepalive). Nor a
         * close after the peer's input ended: they failed then ({@link #inputEnded}).
         */
        @Override
        public boolean owesReplies(FrameSession s) {
            return server.serving() > 0 || s.isDraining() && calls.pending() > 0;
        }

        /**
         * A stop waits for this end's own calls, whose answers are frames still to read (an agent's hop to a
         * route's owner is one), so frames keep coming; new requests are refused while it drains.
         */
        @Override
        public boolean receivesWhileDraining(FrameSession s) {
            return true;
        }

        @Override
        public void inputEnded(FrameSession s) {
            RpcConnection.this.inputEnded();
        }

        @Override
        public void sessionClosed(FrameSession s) {
            closed();
        }
    }

    private void opened(FrameSession opened) {
        this.session = opened;
        this.peer = new PeerSupport(handler, opened, config.maxInFlight(), dialer);
        this.calls = new CallTable(handler, peer, opened, config, clientMetrics);
        this.server = new RequestServer(handler, peer, opened, config, router, serverMetrics, gate);
        long now = System.nanoTime();
        keepalive = new Keepalive(keepaliveNanos, now);
        if (dialer) {
            ping(now);
        }
        if (keepaliveNanos > 0) {
            long check = Math.max(1, keepaliveNanos / 4);
            keepaliveChecks = opened.eventLoop().scheduleAtFixedRate(this::checkKeepalive, check, check,
                    TimeUnit.NANOSECONDS);
        }
        onOpen.accept(this);
    }

    private void received(FrameSession s, ByteBuf body) {
        keepalive.heard();
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
            case REQUEST, ONE_WAY -> server.onRequest(envelope, this);
            case CANCEL -> {
                peer.understandsCancel();
                server.onCancel(envelope.getId());
            }
            // A later version's kind, or 0 (the field left out): dropped and counted, as docs/rpc.md promises, so an older
            // end keeps the connection a newer one opened. Kind 0 once closed it, to a client written from the docs.
            case KIND_UNSPECIFIED, UNRECOGNIZED -> {
                serverMetrics.droppedEnvelope();
                log.debug("{}: envelope of unknown kind {} dropped", s.remoteAddress(), envelope.getKindValue());
            }
        }
    }

    /**
     * Nothing more will be heard from the peer: it ended its stream (a FIN or a reset), or this end began to close and
     * discards what comes. The calls this end waits on can never be answered, so they fail now with {@code UNAVAILABLE},
     * and later ones at once, rather than at their deadlines or after the close's linger; an agent's route owner that
     * half-closed once kept its route, and took calls into the void, for as long as they kept coming. Requests the peer
     * sent are still answered: a half-closed peer reads on. Idempotent.
     */
    private void inputEnded() {
        if (inputEnded) {
            return;
        }
        inputEnded = true;
        if (keepaliveChecks != null) {
            keepaliveChecks.cancel(false);
        }
        onInputEnded.accept(this);
        peer.connectionLost();
        calls.connectionLost();
    }

    private void closed() {
        inputEnded();
        server.connectionLost();
        onClose.accept(this);
    }

    /** Writes {@code body} as one frame; on the event loop. The one place frames go out, so it notes the send. */
    private void write(ByteBuf body, Runnable whenWritten) {
        keepalive.sent();
        session.send(body, whenWritten);
    }

    /** A request with the ping's id, as a peer that does not know the method answers it too (NOT_FOUND). */
    private void ping(long now) {
        Envelope ping = Envelope.newBuilder().setId(BuiltIn.PING_ID).setKind(Kind.REQUEST).setMethod(PING).build();
        write(EnvelopeCodec.encode(ping, session), null);
        keepalive.pinged(now);
    }

    /** Every quarter interval ({@link Keepalive#check}): a ping, or a close once the peer is gone. */
    private void checkKeepalive() {
        if (calls.isClosed()) {
            return;
        }
        long now = System.nanoTime();
        switch (keepalive.check(now)) {
            case PING -> ping(now);
            case GONE -> {
                log.info("closing {}: nothing heard for {} ms after a keepalive ping", remoteAddress(),
                        keepalive.silenceNanos(now) / 1_000_000);
                // The peer is gone: its calls fail now rather than after the close's linger.
                inputEnded();
                session.close();
            }
            case QUIET -> {
            }
        }
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
        // At least 1 ns: what is not positive has passed already, and is never CallTable's "none".
        return calls().call(method, method, payload, Math.max(1, timeoutNanos), null);
    }

    /** Calls a typed method with the configured default deadline. */
    public <Req extends MessageLite, Resp extends MessageLite> CompletableFuture<Resp> call(MethodDescriptor<Req, Resp> method,
            Req request) {
        return call(method, request, config.defaultTimeout());
    }

    /**
     * Calls a typed method; fails with an {@link RpcException}, as a raw call does, and with {@code INTERNAL}
     * if the answer is not its response type. Cancelling the future cancels the call.
     */
    public <Req extends MessageLite, Resp extends MessageLite> CompletableFuture<Resp> call(MethodDescriptor<Req, Resp> method,
            Req request, Duration timeout) {
        return typed(method, call(method.name(), request.toByteString(), timeout));
    }

    /**
     * {@code raw}'s answer parsed as {@code method}'s response. Completed by hand, not with {@code thenApply},
     * so a failure reaches {@code handle} and {@code exceptionally} as the {@link RpcException} itself.
     */
    static <Resp extends MessageLite> CompletableFuture<Resp> typed(MethodDescriptor<?, Resp> method,
            CompletableFuture<ByteString> raw) {
        CompletableFuture<Resp> typed = new CompletableFuture<>();
        raw.whenComplete((payload, e) -> {
            if (e != null) {
                typed.completeExceptionally(unwrap(e));
                return;
            }
            Resp response;
            try {
                response = method.parseResponse(payload);
            } catch (RpcException parse) {
                typed.completeExceptionally(parse);
                return;
            }
            typed.complete(response);
        });
        typed.whenComplete((v, e) -> {
            if (typed.isCancelled()) {
                raw.cancel(false);
            }
        });
        return typed;
    }

    static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    /**
     * The agent's hop to a route's owner: counted under the route tag, and {@code whenWritten} runs once
     * the request has left the outbound buffer, or at once if it is never written. {@code timeoutNanos} may be
     * {@link CallTable#NO_DEADLINE}, for a caller that gave none.
     */
    CompletableFuture<ByteString> relay(String uri, ByteString payload, long timeoutNanos, Runnable whenWritten) {
        return calls().call(uri, RpcMetrics.AGENT_ROUTE, payload, timeoutNanos, whenWritten);
    }

    /**
     * Sends {@code method} one way: no answer, no deadline. Completes once it is queued for writing on the
     * open connection, or fails with an {@link RpcException}: {@code RESOURCE_EXHAUSTED} for a payload over
     * {@link RpcConfig#maxPayload}, {@code INVALID_ARGUMENT} for a bad method name, {@code UNAVAILABLE} when
     * the connection is closed. A refused message leaves the connection as it was. Thread-safe.
     */
    public CompletableFuture<Void> send(String method, ByteString payload) {
        return calls().send(method, payload);
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
        // An event loop that shuts down may end before it runs the close callbacks: its connections are gone all the same.
        return table != null && !table.isClosed() && !session.eventLoop().isShuttingDown();
    }

    public SocketAddress remoteAddress() {
        return session.remoteAddress();
    }

    /** Responses that came after their call's deadline and were dropped. Event-loop confined. */
    public long lateResponses() {
        return calls.lateResponses();
    }

    /**
     * Flushes what is owed and closes; pending calls then fail with {@code UNAVAILABLE}, and calls and sends
     * made after this fail with it at once.
     */
    public void close() {
        CallTable table = calls;
        if (table != null) {
            // A closing connection reads no more answers: calls and sends made from now on fail at once.
            table.closing();
            peer.closing();
        }
        try {
            session.close();
        } catch (RejectedExecutionException e) {
            // Its event loop has shut down, which closed the connection already.
        }
    }

    /** Closes at once, dropping what is queued: the peer stopped reading. Thread-safe. */
    void abort() {
        session.abort();
    }
}
