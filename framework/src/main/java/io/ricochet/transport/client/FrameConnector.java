package io.ricochet.transport.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.codec.ReplyFraming;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseHandler;
import io.ricochet.tls.Tls;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.StreamReads;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import io.ricochet.transport.session.Sessions;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The work behind a {@link FrameClient}: its settings, loops and meters, the connections it makes (over TCP, QUIC or
 * UDP) and the count of those open, which it closes with the client.
 */
final class FrameConnector {
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
    /** One read allocator for every stream connection of this client (StreamReads says why). */
    private final AdaptiveRecvByteBufAllocator readAllocator = StreamReads.sharedAllocator();
    /** The framings, which hold nothing of a connection's: one each serves every connection. */
    private final ReplyFraming runs;
    private final ReplyFraming headroomOnly;

    FrameConnector(FrameClient.Builder b) {
        this.lengthField = b.lengthField;
        this.maxFrame = b.maxFrame != null ? b.maxFrame : b.lengthField.defaultMaxFrame();
        Checks.inRange("maxFrame", maxFrame, 1, lengthField.largestMaxFrame());
        this.runs = ReplyFraming.runs(lengthField, maxFrame);
        this.headroomOnly = ReplyFraming.headroomOnly(lengthField, maxFrame);
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

    EventLoops loops() {
        return loops;
    }

    int maxFrame() {
        return maxFrame;
    }

    int openConnections() {
        return open.get();
    }

    /** {@link FrameClient#connect(InetSocketAddress, FrameHandler)}. */
    CompletableFuture<FrameSession> connect(InetSocketAddress remote, FrameHandler handler) {
        CompletableFuture<FrameSession> session = new CompletableFuture<>();
        SessionOpening opening = new SessionOpening(handler, session);
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                FrameClientInitializer.init(ch, lengthField, maxFrame, opening, counters, tls, noise, remote);
                opening.handshake(FrameClient.handshakeFuture(ch));
                customizer.customize(ch);
            }
        };
        if (quic != null) {
            connectQuic(remote, null, null, init, session);
        } else {
            track(connectStream(null, init, remote, null), session);
        }
        return session;
    }

    /** The bare connection: {@link FrameClient#connect(InetSocketAddress, InetSocketAddress, EventLoop, ChannelHandler, FrameClient.Delivery)}. */
    ChannelFuture connect(InetSocketAddress remote, InetSocketAddress local, EventLoop loop, ChannelHandler frames,
            FrameClient.Delivery delivery) {
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
                ReplyFraming framing = delivery == FrameClient.Delivery.RUNS ? runs : headroomOnly;
                ch.pipeline().addLast(PipelineCustomizer.DECODER, new FrameDecoder(framing, stats));
                ch.pipeline().addLast(PipelineCustomizer.SESSION, frames);
                customizer.customize(ch);
            }
        };
        if (quic != null) {
            return connectQuic(remote, local, loop, init, null);
        }
        ChannelFuture connected = connectStream(loop, init, remote, local);
        track(connected, null);
        return connected;
    }

    /** {@link FrameClient#connectDatagram}. */
    ChannelFuture connectDatagram(InetSocketAddress remote, InetSocketAddress local, EventLoop loop,
            ChannelHandler handler, int socketBufferBytes) {
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

    /** A stream connection's bootstrap; its connect is timed by {@link #connectStream}, not by Netty's option. */
    private Bootstrap bootstrap(EventLoop loop) {
        return new Bootstrap().group(loop)
                .channel(loops.transport().socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.RECVBUF_ALLOCATOR, readAllocator)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0);
    }

    /**
     * Connects a stream connection on {@code loop} (null: the next), failing it with a {@link ConnectTimeoutException}
     * and closing it if not connected within the timeout, as Netty's {@code CONNECT_TIMEOUT_MILLIS} would. Netty's
     * keeps its cancelled timer on the channel for as long as the channel lives, 64 B of every held connection; this
     * one is dropped once the connect is done.
     */
    private ChannelFuture connectStream(EventLoop loop, ChannelInitializer<Channel> init, InetSocketAddress remote,
            InetSocketAddress local) {
        EventLoop on = loop != null ? loop : loops.group().next();
        ChannelFuture connected = bootstrap(on).handler(init).connect(remote, local);
        if (connectTimeoutMillis > 0 && !connected.isDone() && connected instanceof ChannelPromise promise) {
            ScheduledFuture<?> timer;
            try {
                timer = on.schedule(() -> {
                    if (promise.tryFailure(new ConnectTimeoutException("connection timed out after "
                            + connectTimeoutMillis + " ms: " + remote))) {
                        promise.channel().close();
                    }
                }, connectTimeoutMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // The loop is shutting down: the connect fails rather than the call throwing.
                if (promise.tryFailure(e)) {
                    promise.channel().close();
                }
                return connected;
            }
            connected.addListener(f -> timer.cancel(false));
        }
        return connected;
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

    /** {@link FrameClient#close()}. */
    void close() {
        for (Channel ch : Set.copyOf(channels)) {
            Sessions.close(ch);
        }
        for (Channel ch : Set.copyOf(channels)) {
            ch.closeFuture().awaitUninterruptibly(FrameClientInitializer.LINGER_TIMEOUTS.maxCloseNanos() / 1_000_000);
        }
        if (quic != null) {
            quic.close(FrameClientInitializer.LINGER_TIMEOUTS.maxCloseNanos() / 1_000_000);
        }
        if (ownsLoops) {
            loops.close();
        }
        if (meters != null) {
            meters.close();
        }
    }
}
