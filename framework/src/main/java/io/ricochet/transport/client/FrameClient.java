package io.ricochet.transport.client;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.internal.OptionalLibrary;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseHandler;
import io.ricochet.tls.ClientTlsConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

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
    /** The settings, connections and meters: this class is the API in front of them. */
    private final FrameConnector connector;

    private FrameClient(Builder b) {
        this.connector = new FrameConnector(b);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The event loops the connections run on (to share with other clients or servers). */
    public EventLoops eventLoops() {
        return connector.loops();
    }

    public int maxFrame() {
        return connector.maxFrame();
    }

    /** Connections open now. */
    public int openConnections() {
        return connector.openConnections();
    }

    /**
     * Connects to {@code remote} and serves the connection with {@code handler}, which may keep state:
     * it serves only this connection. Completes with the session once connected (with TLS or Noise, once the
     * handshake is done), or fails with the connect or handshake failure.
     */
    public CompletableFuture<FrameSession> connect(InetSocketAddress remote, FrameHandler handler) {
        Checks.notNull("handler", handler);
        return connector.connect(remote, handler);
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
        return connector.connect(remote, local, loop, frames, delivery);
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
        return connector.connectDatagram(remote, local, loop, handler, socketBufferBytes);
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

    /**
     * Closes every connection (over TCP, replies owed are flushed first; over QUIC, see {@link Builder#quic}), then the
     * event loops if this client made them, and its meters.
     */
    @Override
    public void close() {
        connector.close();
    }

    /**
     * One connection used for request and reply: each {@link #request} is answered by the next frame
     * received, in order. Futures complete on the connection's event loop; release the replies.
     */
    public static final class FrameExchange implements FrameHandler {
        private final ReplyQueue replies = new ReplyQueue();

        FrameExchange() {
        }

        @Override
        public void sessionOpened(FrameSession s) {
            replies.opened(s);
        }

        /**
         * Sends {@code body} (taking ownership) and completes with the reply's body, or fails with an
         * {@link java.io.IOException} if the connection is closed or closes first.
         */
        public CompletableFuture<ByteBuf> request(ByteBuf body) {
            return replies.request(body);
        }

        @Override
        public void onFrame(FrameSession s, ByteBuf body) {
            replies.received(body);
        }

        @Override
        public boolean owesReplies(FrameSession s) {
            return false;
        }

        @Override
        public void sessionClosed(FrameSession s) {
            replies.closed(s);
        }

        /** The connection's session, for {@code close()} and the rest. */
        public FrameSession session() {
            return replies.session();
        }

        /** Flushes what was sent, then closes. */
        public void close() {
            replies.session().close();
        }
    }

    /** Builds a {@link FrameClient}. */
    public static final class Builder {
        LengthField lengthField = LengthField.TWO;
        Integer maxFrame;
        EventLoops loops;
        TransportKind transport = TransportKind.AUTO;
        int ioThreads = 1;
        Duration connectTimeout = Duration.ofSeconds(5);
        PipelineCustomizer customizer = PipelineCustomizer.NONE;
        Tls tls;
        ClientNoiseConfig noise;
        QuicSslContext quic;
        MeterRegistry registry;
        String name = "ricochet-client";
        String protocolTag = Protocol.TCP.tag();

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