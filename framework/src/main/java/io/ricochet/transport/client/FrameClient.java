package io.ricochet.transport.client;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.ReplyFraming;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.internal.OptionalLibrary;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseHandler;
import io.ricochet.tls.ClientTlsConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import io.ricochet.transport.session.Sessions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Connects to framed servers. Each connection runs the server's codec and session handler, so a
 * client {@link FrameHandler} sees the same {@link FrameSession}: {@link #connect(InetSocketAddress, FrameHandler)}.
 * For one reply per request, {@link #connect(InetSocketAddress)} gives a {@link FrameExchange} whose
 * {@code request} returns the reply as a future. It needs no registry: meters are counted only when
 * one is given.
 *
 * <pre>{@code
 * try (FrameClient client = FrameClient.builder().build()) {
 *     FrameExchange echo = client.connect(new InetSocketAddress("127.0.0.1", 7000)).join();
 *     ByteBuf reply = echo.request(Unpooled.copiedBuffer("hello", UTF_8)).join();
 * }
 * }</pre>
 */
public final class FrameClient implements AutoCloseable {
    /** A QUIC connection's own idle limit: the server's, usually shorter, is the one that acts. */
    private static final long QUIC_IDLE_MILLIS = 60_000;

    private final LengthField lengthField;
    private final int maxFrame;
    private final EventLoops loops;
    private final boolean ownsLoops;
    private final int connectTimeoutMillis;
    private final PipelineCustomizer customizer;
    private final Tls tls;
    private final ClientNoiseConfig noise;
    private final QuicConnector quic;
    private final TransportCounters counters;
    private final TransportMeters meters;
    private final AtomicInteger open = new AtomicInteger();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();

    private FrameClient(Builder b) {
        this.lengthField = b.lengthField;
        this.maxFrame = b.maxFrame != null ? b.maxFrame : b.lengthField.defaultMaxFrame();
        Checks.inRange("maxFrame", maxFrame, 1, lengthField.largestMaxFrame());
        this.ownsLoops = b.loops == null;
        this.loops = b.loops != null ? b.loops : EventLoops.create(b.transport, b.ioThreads, b.name + "-io");
        this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, b.connectTimeout.toMillis());
        this.customizer = b.customizer;
        this.tls = b.tls;
        this.noise = b.noise;
        if ((tls != null ? 1 : 0) + (noise != null ? 1 : 0) + (b.quic != null ? 1 : 0) > 1) {
            throw new IllegalArgumentException("tls, noise and quic: more than one on one client (expected: one at most)");
        }
        try {
            this.meters = b.registry == null ? null
                    : TransportMeters.register(b.registry, b.name, b.protocolTag, "client", loops.kind().label(), open::get);
        } catch (RuntimeException e) {
            // Meters already registered under this name: the loops made for this client go with it.
            if (ownsLoops) {
                loops.close();
            }
            throw e;
        }
        this.counters = meters == null ? TransportCounters.NONE : meters;
        this.quic = b.quic == null ? null : new QuicConnector(loops.transport(), b.quic, QUIC_IDLE_MILLIS,
                connectTimeoutMillis, ServerConfig.DEFAULT_UDP_SOCKET_BUFFER);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The event loops the connections run on (to share with other clients or servers). */
    public EventLoops eventLoops() {
        return loops;
    }

    public int maxFrame() {
        return maxFrame;
    }

    /** Connections open now. */
    public int openConnections() {
        return open.get();
    }

    /**
     * Connects to {@code remote} and serves the connection with {@code handler}, which may keep state:
     * it serves only this connection. Completes with the session once connected (with TLS or Noise, once the
     * handshake is done), or fails with the connect or handshake failure.
     */
    public CompletableFuture<FrameSession> connect(InetSocketAddress remote, FrameHandler handler) {
        Checks.notNull("handler", handler);
        CompletableFuture<FrameSession> session = new CompletableFuture<>();
        AtomicReference<Future<Channel>> handshake = new AtomicReference<>();
        FrameHandler opening = new FrameHandler() {
            @Override
            public void sessionOpened(FrameSession s) {
                try {
                    handler.sessionOpened(s);
                } catch (RuntimeException e) {
                    // Thrown on, it closes the connection; whoever waits for the session hears why.
                    session.completeExceptionally(e);
                    throw e;
                }
                Future<Channel> tlsDone = handshake.get();
                if (tlsDone == null) {
                    session.complete(s);
                } else {
                    tlsDone.addListener(done -> {
                        if (done.isSuccess()) {
                            session.complete(s);
                        } else {
                            session.completeExceptionally(done.cause());
                        }
                    });
                }
            }

            @Override
            public void onFrame(FrameSession s, ByteBuf body) {
                handler.onFrame(s, body);
            }

            @Override
            public boolean owesReplies(FrameSession s) {
                return handler.owesReplies(s);
            }

            @Override
            public boolean receivesWhileDraining(FrameSession s) {
                return handler.receivesWhileDraining(s);
            }

            @Override
            public void inputEnded(FrameSession s) {
                handler.inputEnded(s);
            }

            @Override
            public void writabilityChanged(FrameSession s) {
                handler.writabilityChanged(s);
            }

            @Override
            public void sessionClosed(FrameSession s) {
                handler.sessionClosed(s);
            }
        };
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                FrameClientInitializer.init(ch, lengthField, maxFrame, opening, counters, tls, noise, remote);
                handshake.set(handshakeFuture(ch));
                customizer.customize(ch);
            }
        };
        if (quic != null) {
            connectQuic(remote, null, null, init, session);
        } else {
            track(bootstrap(null).handler(init).connect(remote), session);
        }
        return session;
    }

    /** Connects to {@code remote} for request and reply: each frame sent gets the next frame received as its reply. */
    public CompletableFuture<FrameExchange> connect(InetSocketAddress remote) {
        FrameExchange exchange = new FrameExchange();
        return connect(remote, exchange).thenApply(session -> exchange);
    }

    /**
     * The bare connection, for clients that keep their own per-frame state on the hot path (the load
     * generator): the framework's decoder in front of {@code frames}, which receives each frame's body
     * (a {@link ByteBuf} it must release) and writes whole frames, length field included, itself.
     *
     * @param local the source address to bind, or null for any
     * @param loop  the event loop to run on (one of {@link #eventLoops()}), or null for the next one
     */
    public ChannelFuture connect(InetSocketAddress remote, InetSocketAddress local, EventLoop loop, ChannelHandler frames) {
        return connect(remote, local, loop, frames, Delivery.BODIES);
    }

    /** How a bare connection's handler is given the frames it receives. */
    public enum Delivery {
        /** One {@link ByteBuf} per frame, holding its body. */
        BODIES,
        /** One {@link io.ricochet.codec.FrameRun} per read, holding every frame it completed, length fields included. */
        RUNS
    }

    /**
     * The bare connection, as {@link #connect(InetSocketAddress, InetSocketAddress, EventLoop, ChannelHandler)}, with
     * the frames delivered as {@code delivery} says: {@link Delivery#RUNS} spares a slice and a pipeline step per frame.
     */
    public ChannelFuture connect(InetSocketAddress remote, InetSocketAddress local, EventLoop loop, ChannelHandler frames,
            Delivery delivery) {
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ConnectionStats stats = new ConnectionStats(counters);
                if (tls != null) {
                    Sessions.addTls(ch.pipeline(), tls, stats,
                            tls.context().newHandler(ch.alloc(), remote.getHostString(), remote.getPort()));
                } else if (noise != null) {
                    ch.pipeline().addFirst(PipelineCustomizer.NOISE, NoiseHandler.client(noise, lengthField.width(), stats));
                }
                ReplyFraming framing = delivery == Delivery.RUNS ? ReplyFraming.runs(lengthField, maxFrame)
                        : ReplyFraming.headroomOnly(lengthField, maxFrame);
                ch.pipeline().addLast(PipelineCustomizer.DECODER, new FrameDecoder(framing, stats));
                ch.pipeline().addLast(PipelineCustomizer.SESSION, frames);
                customizer.customize(ch);
            }
        };
        if (quic != null) {
            return connectQuic(remote, local, loop, init, null);
        }
        ChannelFuture connected = bootstrap(loop).handler(init).connect(remote, local);
        track(connected, null);
        return connected;
    }

    /**
     * A connected UDP socket to {@code remote}, one frame per datagram (docs/protocol.md): {@code handler} writes whole
     * frames, length field included, and receives each datagram's content (a {@link ByteBuf} it must release); there is
     * no TLS or Noise over UDP. A datagram with a body up to this client's max frame (and UDP's own limit) is received
     * whole.
     *
     * <pre>{@code
     * ChannelFuture socket = client.connectDatagram(target, null, null, handler, 0);
     * }</pre>
     *
     * @param local             the source address to bind, or null for any
     * @param loop              the event loop to run on (one of {@link #eventLoops()}), or null for the next one
     * @param socketBufferBytes the socket's send and receive buffers, or 0 for the kernel's default
     */
    public ChannelFuture connectDatagram(InetSocketAddress remote, InetSocketAddress local, EventLoop loop,
            ChannelHandler handler, int socketBufferBytes) {
        Checks.notNull("handler", handler);
        Checks.notNegative("socketBufferBytes", socketBufferBytes);
        if (tls != null || noise != null || quic != null) {
            throw new IllegalStateException("connectDatagram: a client with TLS, Noise or QUIC (expected: a plain one)");
        }
        Bootstrap bootstrap = new Bootstrap().group(loop != null ? loop : loops.group().next())
                .channel(loops.transport().datagramChannel())
                .option(ChannelOption.RECVBUF_ALLOCATOR,
                        new FixedRecvByteBufAllocator(lengthField.width() + Math.min(maxFrame, lengthField.largestUdpBody()) + 1))
                .handler(handler);
        if (socketBufferBytes > 0) {
            bootstrap.option(ChannelOption.SO_SNDBUF, socketBufferBytes).option(ChannelOption.SO_RCVBUF, socketBufferBytes);
        }
        ChannelFuture connected = local == null ? bootstrap.connect(remote) : bootstrap.connect(remote, local);
        track(connected, null);
        return connected;
    }

    /**
     * A QUIC connection with one bidirectional stream that {@code stream} sets up: the future is the loop's shared
     * datagram socket's, done when the stream is open. The stream is the connection: it is what is counted open and
     * closed by {@link #close()}.
     */
    private ChannelFuture connectQuic(InetSocketAddress remote, InetSocketAddress local, EventLoop loop,
            ChannelInitializer<Channel> stream, CompletableFuture<FrameSession> session) {
        ChannelInitializer<Channel> tracked = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                opened(ch);
                ch.pipeline().addLast(stream);
            }
        };
        ChannelFuture connected = quic.connect(loop != null ? loop : loops.group().next(), remote, local, tracked);
        if (session != null) {
            connected.addListener(f -> {
                if (!f.isSuccess()) {
                    session.completeExceptionally(f.cause());
                }
            });
        }
        return connected;
    }

    /**
     * The TLS or Noise handshake of a connection made by a {@code FrameClient}, or null when it has neither: a
     * bare connection's handler waits for it before it sends.
     */
    public static Future<Channel> handshakeFuture(Channel ch) {
        SslHandler ssl = ch.pipeline().get(SslHandler.class);
        if (ssl != null) {
            return ssl.handshakeFuture();
        }
        NoiseHandler noise = ch.pipeline().get(NoiseHandler.class);
        return noise == null ? null : noise.handshakeFuture();
    }

    private Bootstrap bootstrap(EventLoop loop) {
        return new Bootstrap().group(loop != null ? loop : loops.group().next())
                .channel(loops.transport().socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
    }

    private void track(ChannelFuture connected, CompletableFuture<FrameSession> session) {
        Channel ch = connected.channel();
        channels.add(ch);
        connected.addListener(f -> {
            if (f.isSuccess()) {
                opened(ch);
            } else {
                channels.remove(ch);
                if (session != null) {
                    session.completeExceptionally(f.cause());
                }
            }
        });
    }

    /** Counts {@code ch} open until it closes, and closes it with the client. */
    private void opened(Channel ch) {
        channels.add(ch);
        open.incrementAndGet();
        ch.closeFuture().addListener(c -> {
            open.decrementAndGet();
            channels.remove(ch);
        });
    }

    /**
     * Closes every connection (over TCP, replies owed are flushed first; over QUIC, see {@link Builder#quic}), then the
     * event loops if this client made them, and its meters.
     */
    @Override
    public void close() {
        for (Channel ch : Set.copyOf(channels)) {
            Sessions.close(ch);
        }
        for (Channel ch : Set.copyOf(channels)) {
            ch.closeFuture().awaitUninterruptibly(FrameClientInitializer.MAX_CLOSE_NANOS / 1_000_000);
        }
        if (quic != null) {
            quic.close(FrameClientInitializer.MAX_CLOSE_NANOS / 1_000_000);
        }
        if (ownsLoops) {
            loops.close();
        }
        if (meters != null) {
            meters.close();
        }
    }

    /**
     * One connection used for request and reply: each {@link #request} is answered by the next frame
     * received, in order. Futures complete on the connection's event loop; release the replies.
     */
    public static final class FrameExchange implements FrameHandler {
        private final ArrayDeque<CompletableFuture<ByteBuf>> waiting = new ArrayDeque<>();
        private volatile FrameSession session;
        /** Set on the event loop when the connection closes: later requests fail at once instead of waiting forever. */
        private volatile boolean closed;

        FrameExchange() {
        }

        @Override
        public void sessionOpened(FrameSession s) {
            this.session = s;
        }

        /**
         * Sends {@code body} (taking ownership) and completes with the reply's body, or fails with an
         * {@link java.io.IOException} if the connection is closed or closes first.
         */
        public CompletableFuture<ByteBuf> request(ByteBuf body) {
            CompletableFuture<ByteBuf> reply = new CompletableFuture<>();
            FrameSession s = session;
            EventLoop loop = s.eventLoop();
            if (loop.inEventLoop()) {
                send(s, body, reply);
            } else {
                try {
                    loop.execute(() -> send(s, body, reply));
                } catch (RejectedExecutionException e) {
                    body.release();
                    reply.completeExceptionally(closedException(s));
                }
            }
            return reply;
        }

        private void send(FrameSession s, ByteBuf body, CompletableFuture<ByteBuf> reply) {
            if (closed) {
                body.release();
                reply.completeExceptionally(closedException(s));
                return;
            }
            waiting.add(reply);
            s.send(body, null);
        }

        private static java.io.IOException closedException(FrameSession s) {
            return new java.io.IOException("connection to " + s.remoteAddress() + " closed");
        }

        @Override
        public void onFrame(FrameSession s, ByteBuf body) {
            CompletableFuture<ByteBuf> reply = waiting.poll();
            if (reply == null || !reply.complete(body)) {
                body.release();
            }
        }

        @Override
        public boolean owesReplies(FrameSession s) {
            return false;
        }

        @Override
        public void sessionClosed(FrameSession s) {
            closed = true;
            CompletableFuture<ByteBuf> reply;
            while ((reply = waiting.poll()) != null) {
                reply.completeExceptionally(closedException(s));
            }
        }

        /** The connection's session, for {@code close()} and the rest. */
        public FrameSession session() {
            return session;
        }

        /** Flushes what was sent, then closes. */
        public void close() {
            session.close();
        }
    }

    /** Builds a {@link FrameClient}. */
    public static final class Builder {
        private LengthField lengthField = LengthField.TWO;
        private Integer maxFrame;
        private EventLoops loops;
        private TransportKind transport = TransportKind.AUTO;
        private int ioThreads = 1;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private PipelineCustomizer customizer = PipelineCustomizer.NONE;
        private Tls tls;
        private ClientNoiseConfig noise;
        private QuicSslContext quic;
        private MeterRegistry registry;
        private String name = "ricochet-client";
        private String protocolTag = Protocol.TCP.tag();

        private Builder() {
        }

        public Builder lengthField(LengthField lengthField) {
            this.lengthField = Checks.notNull("lengthField", lengthField);
            return this;
        }

        /** The largest frame accepted from the server; by default the length field's default. */
        public Builder maxFrame(int maxFrame) {
            this.maxFrame = maxFrame;
            return this;
        }

        /** Runs on {@code loops}, which the caller owns, instead of loops of its own. */
        public Builder eventLoops(EventLoops loops) {
            this.loops = Checks.notNull("loops", loops);
            return this;
        }

        /** The I/O transport and thread count of loops of its own (AUTO and 1 by default). */
        public Builder transport(TransportKind transport, int ioThreads) {
            this.transport = Checks.notNull("transport", transport);
            this.ioThreads = Checks.inRange("ioThreads", ioThreads, 0, 1024);
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = Checks.positive("connectTimeout", connectTimeout);
            return this;
        }

        public Builder pipeline(PipelineCustomizer customizer) {
            this.customizer = Checks.notNull("customizer", customizer);
            return this;
        }

        /**
         * Connects over TLS: build it from a {@link ClientTlsConfig}, or wrap a client {@code SslContext} of
         * one's own with {@link Tls#of}. The server's certificate must name the host or address connected to.
         */
        public Builder tls(Tls tls) {
            this.tls = Checks.notNull("tls", tls).clientSide();
            return this;
        }

        /** Connects over the Noise channel to a server whose public key {@code noise} pins. Not with {@link #tls}. */
        public Builder noise(ClientNoiseConfig noise) {
            OptionalLibrary.NOISE.require();
            this.noise = Checks.notNull("noise", noise);
            return this;
        }

        /**
         * Connects over QUIC: each connection a QUIC connection, the frames on one bidirectional stream
         * ({@code docs/protocol.md}); the connections of one event loop share its datagram socket. A bare connection's
         * future is then that socket's: close the connection through its stream (the handler's channel). {@code tls}
         * must offer the server's ALPN, {@link Protocol#QUIC_ALPN} for a Ricochet server. Not with {@link #tls} or
         * {@link #noise}. {@link #close()} closes each stream as it closes a TCP connection, then each QUIC connection
         * ({@code CONNECTION_CLOSE}) and the sockets.
         */
        public Builder quic(QuicSslContext tls) {
            OptionalLibrary.QUIC.require();
            this.quic = Checks.notNull("tls", tls);
            return this;
        }

        /** Counts into {@code registry}, tagged {@code name}, the protocol tag and {@code role=client}. */
        public Builder meterRegistry(MeterRegistry registry, String name) {
            this.registry = Checks.notNull("registry", registry);
            this.name = Checks.notNull("name", name);
            return this;
        }

        /** The {@code protocol} tag of the meters: {@code tcp}, or a layer's own ({@code rpc}). */
        public Builder protocolTag(String tag) {
            this.protocolTag = Checks.notNull("tag", tag);
            return this;
        }

        public FrameClient build() {
            return new FrameClient(this);
        }
    }
}
