package io.ricochet.transport.server;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicConnectionIdGenerator;
import io.netty.handler.codec.quic.QuicServerCodecBuilder;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicTokenHandler;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.transport.IoTransport;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.QuicSockets;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.TcpChannelInitializer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The QUIC listener: one datagram socket on one event loop with quiche's codec, TLS 1.3 inside it. Each bidirectional
 * stream a client opens is a framed session built exactly as a TCP connection is (decoder, idle timeout,
 * backpressure, session; {@link TcpChannelInitializer}), so frames, replies, limits and protocol errors are TCP's, and
 * a bad length closes the stream. QUIC's own idle timeout is the config's, so a connection with no stream left goes
 * quiet and ends. Connections and streams are each capped at {@code maxConnections}, and a connection may open
 * {@value #MAX_STREAMS_PER_CONNECTION} streams at once. Flow control bounds what a peer can queue: a stream's reads
 * pause while its replies wait (backpressure), so its window stops the peer. With {@code quicRetry} a connection is
 * made only after a Retry round trip ({@link RetryTokens}). A connection that fails (a handshake without our ALPN, say)
 * is counted and logged in one line, rate-limited ({@link QuicConnectionErrorHandler}).
 */
final class QuicListener {
    static final int MAX_STREAMS_PER_CONNECTION = 16;

    /** Sends no Retry, so issues no token, and refuses any token a client shows: none can be one of ours. */
    private static final QuicTokenHandler NO_RETRY = new QuicTokenHandler() {
        @Override
        public boolean writeToken(ByteBuf out, ByteBuf dcid, InetSocketAddress address) {
            return false;
        }

        @Override
        public int validateToken(ByteBuf token, InetSocketAddress address) {
            return -1;
        }

        @Override
        public int maxTokenLength() {
            return 0;
        }
    };

    /**
     * Client addresses awaiting validation held at once ({@link UnvalidatedAddresses}), about 200 bytes each; not
     * tied to {@code maxConnections}, which may be unbounded.
     */
    static final int MAX_UNVALIDATED_ADDRESSES = 65_536;
    /**
     * How long past a connection's idle timeout its address's count outlives its last datagram. quiche's idle timer is
     * at least three probe timeouts, about 3 s before any round trip is measured.
     */
    static final Duration UNVALIDATED_GRACE = Duration.ofSeconds(5);

    private final TransportCounters counters;
    private final ServerConfig config;
    private final ConnectionRegistry connections;
    private final ConnectionRegistry streams;
    private final ChannelInitializer<Channel> streamInitializer;
    private final QuicConnectionErrorHandler connectionErrors;
    private final QuicSslContext tls;
    private volatile Channel channel;

    QuicListener(ServerConfig config, QuicSslContext tls, Supplier<FrameHandler> handlers, TransportCounters counters,
            PipelineCustomizer customizer) {
        this.counters = counters;
        this.config = config;
        this.tls = tls;
        this.connections = new ConnectionRegistry(config.maxConnections());
        this.streams = new ConnectionRegistry(config.maxConnections());
        this.streamInitializer = new TcpChannelInitializer(config, handlers, counters, streams, customizer);
        this.connectionErrors = new QuicConnectionErrorHandler(counters);
    }

    ChannelFuture bind(EventLoop loop, IoTransport transport) {
        long idleMillis = config.idleTimeout().toMillis();
        ChannelInitializer<QuicChannel> admission = new ChannelInitializer<>() {
            @Override
            protected void initChannel(QuicChannel ch) {
                // First, so that even a connection closed here has its failures counted, not logged at length.
                ch.pipeline().addLast(connectionErrors);
                if (!connections.admit(ch)) {
                    ch.close();
                } else {
                    // Reading starts now, not at channelActive (the handshake's end), so streams that arrive as
                    // 0-RTT early data, where the TLS context accepts it, are served at once.
                    ch.read();
                }
            }
        };
        QuicAmplificationLimiter limiter = new QuicAmplificationLimiter(new UnvalidatedAddresses(
                MAX_UNVALIDATED_ADDRESSES, config.idleTimeout().plus(UNVALIDATED_GRACE), System::nanoTime), counters,
                config.quicRetry());
        Bootstrap bootstrap = QuicSockets.datagramBootstrap(loop, transport)
                .option(ChannelOption.SO_RCVBUF, config.udpSocketBuffer())
                .option(ChannelOption.SO_SNDBUF, config.udpSocketBuffer())
                .handler(limiter.between(new QuicInitialSizeHandler(counters), new QuicServerCodecBuilder()
                        .sslContext(tls)
                        .maxRecvUdpPayloadSize(QuicSockets.MAX_UDP_PAYLOAD)
                        .maxIdleTimeout(idleMillis, TimeUnit.MILLISECONDS)
                        .initialMaxData(QuicSockets.CONNECTION_WINDOW)
                        .initialMaxStreamDataBidirectionalRemote(QuicSockets.STREAM_WINDOW)
                        .initialMaxStreamDataBidirectionalLocal(QuicSockets.STREAM_WINDOW)
                        .initialMaxStreamsBidirectional(MAX_STREAMS_PER_CONNECTION)
                        .initialMaxStreamsUnidirectional(0)
                        // Without Retry, the limiter holds an unvalidated address to RFC 9000's three times what it
                        // sent; with it, no connection exists before the address is shown.
                        .tokenHandler(config.quicRetry() ? new RetryTokens(System::nanoTime) : NO_RETRY)
                        // Random, not Netty's default HMAC of the ID the client chose: anyone could learn that for an
                        // ID of their choosing, while a client that uses ours shows it receives at its address.
                        .connectionIdAddressGenerator(QuicConnectionIdGenerator.randomGenerator())
                        .handler(limiter.watching(admission))
                        .streamOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                        // A stream's replies pause its reading at the config's watermarks, as a TCP connection's do.
                        .streamOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                                config.writeBufferLowWatermark(), config.writeBufferHighWatermark()))
                        .streamHandler(streamInitializer)
                        .build()));
        if (config.reusePort()) {
            bootstrap.option(transport.reusePortOption(), true);
        }
        ChannelFuture bound = bootstrap.bind(config.host(), config.quicPort());
        bound.addListener(f -> {
            if (f.isSuccess()) {
                channel = bound.channel();
            }
        });
        return bound;
    }

    /** The bound address, or null before the bind. */
    InetSocketAddress address() {
        Channel ch = channel;
        return ch == null ? null : (InetSocketAddress) ch.localAddress();
    }

    int activeStreams() {
        return streams.active();
    }

    int activeConnections() {
        return connections.active();
    }

    /** Admits no more streams and returns the open ones, for a stop to drain as it drains TCP connections. */
    Set<Channel> closeStreams() {
        return streams.close();
    }

    Set<Channel> openStreams() {
        return streams.channels();
    }

    /** Closes every connection (CONNECTION_CLOSE, no error) and then the socket; completes when the socket is closed. */
    CompletableFuture<Void> close() {
        connections.close().forEach(Channel::close);
        CompletableFuture<Void> done = new CompletableFuture<>();
        Channel ch = channel;
        if (ch == null) {
            done.complete(null);
            return done;
        }
        ch.eventLoop().execute(() -> ch.close().addListener(f -> done.complete(null)));
        return done;
    }
}
