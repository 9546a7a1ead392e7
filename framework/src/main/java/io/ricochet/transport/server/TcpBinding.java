package io.ricochet.transport.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.internal.AcceptErrorHandler;
import io.ricochet.metrics.HandshakeCounters;
import io.ricochet.metrics.HandshakeMeters;
import io.ricochet.metrics.TlsHandshakeMeters;
import io.ricochet.noise.NoiseHandshakes;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.StreamReads;
import io.ricochet.tls.Tls;
import io.ricochet.transport.session.TcpChannelInitializer;
import io.ricochet.transport.session.TlsHandoff;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A TCP listener, plaintext, TLS or Noise: its accepted connections each a framed session. */
final class TcpBinding extends ListenerBinding {
    private static final Logger log = LoggerFactory.getLogger(RicochetServer.class);
    /** One allocator for every connection of the listener (StreamReads says why). */
    private final AdaptiveRecvByteBufAllocator readAllocator = StreamReads.sharedAllocator();

    private final ConnectionRegistry connections;
    private HandshakeMeters handshakeMeters;
    /** The Noise listener's handshake threads and bounds; made at prepare, closed at release. */
    private volatile NoiseHandshakes handshakes;
    /** The TLS listener's handshake loops, apart from the session's; made at bind, closed at release. */
    private volatile EventLoopGroup tlsHandshakeLoops;
    private TlsHandshakeMeters tlsMeters;
    private volatile Channel channel;

    TcpBinding(Listener listener, ServerConfig config, ListenerContext context) {
        super(listener, config, context);
        this.connections = new ConnectionRegistry(config.maxConnections(), config.maxConnectionsPerAddress(),
                context.budget());
    }

    @Override
    void prepare() {
        super.prepare();
        if (listener.noise() != null) {
            handshakes = NoiseHandshakes.start(listener.noise(), handshakeCounters(), meterName());
        }
    }

    /** The Noise listener's handshake meters, tagged as its transport meters are. */
    private HandshakeCounters handshakeCounters() {
        if (context.registry() == null) {
            return HandshakeCounters.NONE;
        }
        handshakeMeters = HandshakeMeters.register(context.registry(), meterName(), listener.protocol(),
                context.loops().kind().label(), () -> handshakes == null ? 0 : handshakes.inProgress());
        return handshakeMeters;
    }

    @Override
    CompletableFuture<Void> bind() {
        EventLoops loops = context.loops();
        Tls tls = listener.tls();
        TlsHandoff handoff = null;
        if (tls != null && loops.kind() == TransportKind.IO_URING) {
            // io_uring keeps a channel's submitted reads across a deregistration, and their completions come back to
            // the loop it left: a connection is not moved between its loops.
            log.info("{}: tls handshakes run on the event loops on io_uring, not on loops of their own", meterName());
            handoff = TlsHandoff.inPlace(tls.handshakesPerAddress());
        } else if (tls != null) {
            // Accepts and handshakes both: all a ClientHello flood costs the server runs on these loops.
            tlsHandshakeLoops = loops.transport().newEventLoopGroup(tls.resolvedHandshakeThreads(), meterName() + "-tls");
            handoff = TlsHandoff.to(loops.group(), tls.handshakesPerAddress());
        }
        if (handoff != null && context.registry() != null) {
            TlsHandoff turns = handoff;
            tlsMeters = TlsHandshakeMeters.register(context.registry(), meterName(), listener.protocol(),
                    loops.kind().label(), turns::handshaking, turns::waiting);
        }
        EventLoopGroup accepting = tlsHandshakeLoops != null ? tlsHandshakeLoops : loops.group();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(accepting, accepting)
                .channel(loops.transport().serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, config.backlog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(new AcceptErrorHandler(listener.protocol() + " " + config.host() + ":" + config.tcpPort(),
                        counters::acceptError))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.RECVBUF_ALLOCATOR, readAllocator)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.writeBufferLowWatermark(), config.writeBufferHighWatermark()))
                .childHandler(handoff != null
                        ? new TcpChannelInitializer(config, handlers, counters, connections, customizer(), tls, handoff)
                        : new TcpChannelInitializer(config, handlers, counters, connections, customizer(), tls,
                                handshakes));
        context.childOptions().forEach((option, value) -> childOption(bootstrap, option, value));
        if (config.reusePort()) {
            bootstrap.option(loops.transport().reusePortOption(), true);
        }
        return bound(bootstrap.bind(config.host(), config.tcpPort()), config.tcpPort()).thenAccept(ch -> {
            channel = ch;
            log.info("{} bound to {} ({}{})", listener.protocol(), hostPort(address()), loops.kind().label(),
                    listener.tls() != null ? ", tls " + listener.tls().provider()
                            : listener.noise() != null ? ", noise " + listener.noise().keyPair().publicKeyBase64() : "");
        });
    }

    @SuppressWarnings("unchecked")
    private static <T> void childOption(ServerBootstrap bootstrap, ChannelOption<T> option, Object value) {
        bootstrap.childOption(option, (T) value);
    }

    @Override
    InetSocketAddress address() {
        Channel ch = channel;
        return ch == null ? null : (InetSocketAddress) ch.localAddress();
    }

    @Override
    int active() {
        return connections.active();
    }

    /** Bytes queued for writing across this listener's connections. */
    long pendingOutboundBytes() {
        return connections.pendingOutboundBytes();
    }

    @Override
    CompletableFuture<Void> drain() {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        // Closed before the listener: a connection accepted from now on is closed unserved, and none is missed.
        for (Channel ch : connections.close()) {
            closing.add(drain(ch));
        }
        closing.add(close());
        return CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new));
    }

    @Override
    CompletableFuture<Void> abort() {
        connections.close().forEach(Channel::close);
        return close();
    }

    @Override
    Collection<Channel> openSessions() {
        return connections.channels();
    }

    @Override
    CompletableFuture<Void> close() {
        Channel ch = channel;
        return ch == null ? CompletableFuture.completedFuture(null) : closed(ch.close());
    }

    @Override
    void release() {
        EventLoopGroup tlsLoops = tlsHandshakeLoops;
        if (tlsLoops != null) {
            // Waited for, so that the connections still handshaking are closed, and counted, before the meters go.
            tlsLoops.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        super.release();
        if (handshakeMeters != null) {
            handshakeMeters.close();
        }
        if (tlsMeters != null) {
            tlsMeters.close();
        }
        NoiseHandshakes noise = handshakes;
        if (noise != null) {
            noise.close();
        }
    }
}
