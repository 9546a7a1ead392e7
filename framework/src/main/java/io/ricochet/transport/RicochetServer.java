package io.ricochet.transport;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.util.concurrent.EventExecutor;
import io.ricochet.config.Checks;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.handler.AcceptErrorHandler;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.HandshakeCounters;
import io.ricochet.metrics.HandshakeMeters;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.noise.NoiseHandshakes;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.tls.Tls;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server: TCP and/or UDP listeners on a group of event loops, each frame handed to a
 * {@link FrameHandler}. Built with {@link #builder()}; {@link #start()} binds, {@link #stop()} stops
 * gracefully, and {@link #close()} is a stop that waits.
 *
 * <pre>{@code
 * RicochetServer server = RicochetServer.builder()
 *         .config(ServerConfig.builder().tcpPort(9000).build())
 *         .handler(new MyHandler())
 *         .meterRegistry(registry)
 *         .build();
 * server.startAndAwait();
 * System.out.println("tcp on " + server.tcpAddress());
 * server.terminationFuture().join();
 * }</pre>
 */
public final class RicochetServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RicochetServer.class);
    /** Reads per read event before yielding: Netty's default for socket channels. */
    private static final int MAX_MESSAGES_PER_READ = 16;
    /**
     * One allocator for every connection: Netty's default gives each channel its own (32 B of heap apiece).
     * Netty sets a channel's own allocator to the channel's default of 16 reads per event; a shared one
     * must be told, or it stays at 1.
     */
    private static final AdaptiveRecvByteBufAllocator SHARED_READ_ALLOCATOR =
            (AdaptiveRecvByteBufAllocator) new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(MAX_MESSAGES_PER_READ);
    /** Datagrams one UDP read may take at most, and the buffer they share: small datagrams batch, large ones do not. */
    private static final int MAX_DATAGRAMS_PER_READ = 16;
    private static final int DATAGRAM_READ_BYTES = 64 * 1024;
    /** How often a draining shutdown looks again whether a connection still owes replies. */
    static final long DRAIN_CHECK_MILLIS = 10;

    private final ServerConfig config;
    private final Supplier<FrameHandler> handlers;
    private final EventLoops loops;
    private final boolean ownsLoops;
    private final Map<ChannelOption<?>, Object> childOptions;
    private final PipelineCustomizer customizer;
    private final Tls tls;
    private final ServerNoiseConfig noise;
    private final QuicSslContext quicTls;
    private final MeterRegistry registry;
    private final String name;
    private final String tcpProtocolTag;
    private final ConnectionRegistry connections;
    private final ConnectionBudget udpSessionCap;
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    /** The binds of the one start: a stop during the start waits for them. */
    private final CompletableFuture<Void> binding = new CompletableFuture<>();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final List<TransportMeters> meters = new ArrayList<>();
    private HandshakeMeters handshakeMeters;
    /** The Noise listener's handshake threads and bounds; made at start, closed at release. */
    private volatile NoiseHandshakes handshakes;
    private volatile Channel tcpChannel;
    private volatile QuicListener quic;
    /** The UDP sockets bound so far, all on one port; the first one bound first. */
    private final List<Channel> udpChannels = new CopyOnWriteArrayList<>();

    private RicochetServer(Builder b, EventLoops loops, boolean ownsLoops) {
        this.config = b.config;
        this.handlers = b.handlers;
        this.loops = loops;
        this.ownsLoops = ownsLoops;
        this.childOptions = Map.copyOf(b.childOptions);
        this.customizer = b.customizer;
        this.tls = b.tls;
        this.noise = b.noise;
        this.quicTls = b.quicTls;
        this.registry = b.registry;
        this.name = b.name;
        this.tcpProtocolTag = b.tcpProtocolTag;
        this.connections = new ConnectionRegistry(config.maxConnections(), config.maxConnectionsPerAddress(), b.budget);
        // One cap for every UDP socket of the port, however the kernel spreads the peers over them.
        this.udpSessionCap = new ConnectionBudget(config.maxUdpSessions());
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds the listeners the config enables; completes with this server once they are bound, or fails
     * with a {@link ServerStartException} (a port taken, an address wrong, meters already registered under
     * this name), having closed what it bound and released what it took. At most once, and not after
     * {@link #stop()}.
     */
    public CompletableFuture<RicochetServer> start() {
        if (!state.compareAndSet(State.NEW, State.STARTING)) {
            return CompletableFuture.failedFuture(new IllegalStateException("start: server is " + state.get().label
                    + " (expected: new; a server starts at most once)"));
        }
        CompletableFuture<RicochetServer> result = new CompletableFuture<>();
        try {
            // Every meter first: a clash must fail the start before anything is bound.
            TransportCounters tcpCounters = config.tcpEnabled() ? counters(tcpProtocolTag, connections::active) : null;
            if (tcpCounters != null && noise != null) {
                handshakes = NoiseHandshakes.start(noise, handshakeCounters(), name);
            }
            TransportCounters udpCounters = config.udpEnabled() ? counters(Protocol.UDP.tag(), udpSessionCap::held) : null;
            // A QUIC listener's sessions are its streams.
            TransportCounters quicCounters = config.quicEnabled() ? counters(Protocol.QUIC.tag(), this::activeQuicStreams)
                    : null;
            CompletableFuture<Void> tcp = tcpCounters != null ? bindTcp(tcpCounters) : CompletableFuture.completedFuture(null);
            CompletableFuture<Void> udp = udpCounters != null ? bindUdp(udpCounters) : CompletableFuture.completedFuture(null);
            CompletableFuture<Void> quicBound = quicCounters != null ? bindQuic(quicCounters)
                    : CompletableFuture.completedFuture(null);
            CompletableFuture.allOf(tcp, udp, quicBound).whenComplete((v, e) -> {
                if (e == null) {
                    binding.complete(null);
                } else {
                    binding.completeExceptionally(e);
                }
            });
        } catch (RuntimeException e) {
            binding.completeExceptionally(e instanceof IllegalStateException
                    ? new ServerStartException("cannot start " + name + ": " + e.getMessage(), e) : e);
        }
        binding.whenComplete((v, e) -> {
            if (e == null) {
                // A stop that came during the start has been waiting for the binds: it closes them now.
                state.compareAndSet(State.STARTING, State.STARTED);
                result.complete(this);
            } else {
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                state.set(State.STOPPING);
                QuicListener quicListener = quic;
                CompletableFuture<Void> quicClosed = quicListener == null ? CompletableFuture.completedFuture(null)
                        : quicListener.close();
                CompletableFuture.allOf(closeListeners(), quicClosed).thenCompose(x -> release()).whenComplete((x, y) -> {
                    terminate();
                    result.completeExceptionally(cause);
                });
            }
        });
        return result;
    }

    /** {@link #start()} and waits: throws {@link ServerStartException} if a listener cannot be bound. */
    public RicochetServer startAndAwait() {
        try {
            return start().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private TransportCounters counters(String protocol, Supplier<Number> active) {
        if (registry == null) {
            return TransportCounters.NONE;
        }
        TransportMeters registered = TransportMeters.register(registry, name, protocol, "server", loops.kind().label(),
                active);
        meters.add(registered);
        return registered;
    }

    /** The Noise listener's handshake meters, tagged as its transport meters are. */
    private HandshakeCounters handshakeCounters() {
        if (registry == null) {
            return HandshakeCounters.NONE;
        }
        handshakeMeters = HandshakeMeters.register(registry, name, tcpProtocolTag, loops.kind().label(),
                () -> handshakes == null ? 0 : handshakes.inProgress());
        return handshakeMeters;
    }

    private CompletableFuture<Void> bindTcp(TransportCounters tcpCounters) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loops.group())
                .channel(loops.transport().serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, config.backlog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(new AcceptErrorHandler(tcpProtocolTag + " " + config.host() + ":" + config.tcpPort(), tcpCounters))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.RECVBUF_ALLOCATOR, SHARED_READ_ALLOCATOR)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.writeBufferLowWatermark(), config.writeBufferHighWatermark()))
                .childHandler(new TcpChannelInitializer(config, handlers, tcpCounters, connections, customizer, tls, handshakes));
        childOptions.forEach((option, value) -> childOption(bootstrap, option, value));
        if (config.reusePort()) {
            bootstrap.option(loops.transport().reusePortOption(), true);
        }
        return bound(bootstrap.bind(config.host(), config.tcpPort()), "tcp", config.tcpPort()).thenAccept(ch -> {
            tcpChannel = ch;
            log.info("{} bound to {} ({}{})", tcpProtocolTag, hostPort(tcpAddress()), loops.kind().label(),
                    tls != null ? ", tls " + tls.provider() : noise != null ? ", noise " + noise.keyPair().publicKeyBase64() : "");
        });
    }

    @SuppressWarnings("unchecked")
    private static <T> void childOption(ServerBootstrap bootstrap, ChannelOption<T> option, Object value) {
        bootstrap.childOption(option, (T) value);
    }

    /**
     * Binds the UDP port once per channel, each channel on an event loop of its own: the first with the configured
     * port, the rest with the port it got. With {@code reusePort} every channel sets {@code SO_REUSEPORT}, and other
     * processes that set it share the port on purpose. Without it the first channel binds without the option, so the
     * bind fails if anything holds the port, as a TCP listener's does; only then, the port its own, does it turn the
     * option on, so that this server's other channels can join it. Binding them all with the option let a second
     * server without {@code --reuse-port} bind the same port and take a share of the first one's peers.
     */
    private CompletableFuture<Void> bindUdp(TransportCounters udpCounters) {
        List<EventLoop> channelLoops = udpLoops();
        boolean shared = config.reusePort();
        CompletableFuture<Channel> first = bindUdp(channelLoops.get(0), config.udpPort(), shared, udpCounters);
        CompletableFuture<Void> bound = channelLoops.size() == 1 || shared ? first.thenApply(ch -> null)
                : first.thenAccept(this::openToOwnChannels);
        for (EventLoop loop : channelLoops.subList(1, channelLoops.size())) {
            bound = bound.thenCompose(v -> bindUdp(loop, udpAddress().getPort(), true, udpCounters)).thenApply(ch -> null);
        }
        return bound.thenRun(() -> log.info("udp bound to {} ({}, {} channel{})", hostPort(udpAddress()),
                loops.kind().label(), channelLoops.size(), channelLoops.size() == 1 ? "" : "s"));
    }

    /**
     * Sets {@code SO_REUSEPORT} on the first UDP channel, bound without it, so that the server's other channels can
     * bind its port. The kernel cannot keep the group to them: a process that sets the option itself could join
     * from now on, but one that does not (a server without {@code reusePort}) is refused.
     */
    private void openToOwnChannels(Channel first) {
        String failure;
        Throwable cause = null;
        try {
            failure = first.config().setOption(loops.transport().reusePortOption(), true) ? null : "unsupported";
        } catch (ChannelException e) {
            failure = e.getMessage();
            cause = e;
        }
        if (failure != null) {
            throw new ServerStartException("cannot bind udp " + hostPort(udpAddress()) + " for several channels: "
                    + "SO_REUSEPORT: " + failure + " (expected: udpChannels 1 on " + loops.kind().label() + ")", cause);
        }
    }

    /** The event loops that get a UDP channel: as many as configured, or one per loop where the transport scales. */
    private List<EventLoop> udpLoops() {
        List<EventLoop> all = new ArrayList<>();
        loops.group().forEach(executor -> all.add((EventLoop) executor));
        int wanted = config.udpChannels() != 0 ? config.udpChannels()
                : loops.kind() == TransportKind.NIO ? 1 : all.size();
        return all.subList(0, Math.min(wanted, all.size()));
    }

    private CompletableFuture<Channel> bindUdp(EventLoop loop, int port, boolean reusePort,
            TransportCounters udpCounters) {
        int width = config.lengthField().width();
        // One byte more than the largest valid datagram, so an oversized one is seen as oversized.
        int slot = width + config.maxUdpBody() + 1;
        ChannelOption<Integer> batched = loops.transport().maxDatagramPayloadOption();
        int slots = batched == null ? 1 : Math.max(1, Math.min(MAX_DATAGRAMS_PER_READ, DATAGRAM_READ_BYTES / slot));
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(loops.transport().datagramChannel())
                .option(ChannelOption.SO_RCVBUF, config.udpSocketBuffer())
                .option(ChannelOption.SO_SNDBUF, config.udpSocketBuffer())
                .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(slot * slots))
                .handler(new UdpSessionHandler(handlers, new ConnectionStats(udpCounters), width, config.maxUdpBody(),
                        config.idleTimeout(), udpSessionCap));
        if (slots > 1) {
            // Several datagrams a read (one syscall on epoll), each a slice of one buffer.
            bootstrap.option(batched, slot);
        }
        if (reusePort) {
            bootstrap.option(loops.transport().reusePortOption(), true);
        }
        return bound(bootstrap.bind(config.host(), port), "udp", port).thenApply(ch -> {
            udpChannels.add(ch);
            return ch;
        });
    }

    private CompletableFuture<Void> bindQuic(TransportCounters quicCounters) {
        QuicListener listener = new QuicListener(config, quicTls, handlers, quicCounters, customizer);
        quic = listener;
        return bound(listener.bind(loops.group().next(), loops.transport()), "quic", config.quicPort())
                .thenAccept(ch -> log.info("quic bound to {} ({}, TLS 1.3, ALPN {})", hostPort(quicAddress()),
                        loops.kind().label(), Protocol.QUIC_ALPN));
    }

    private CompletableFuture<Channel> bound(ChannelFuture future, String what, int port) {
        CompletableFuture<Channel> result = new CompletableFuture<>();
        future.addListener(f -> {
            if (f.isSuccess()) {
                result.complete(future.channel());
            } else {
                result.completeExceptionally(new ServerStartException("cannot bind " + what + " " + config.host() + ":"
                        + port + ": " + f.cause().getMessage(), f.cause()));
            }
        });
        return result;
    }

    private static String hostPort(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }

    public ServerConfig config() {
        return config;
    }

    /** The transport actually running, AUTO resolved. */
    public TransportKind transport() {
        return loops.kind();
    }

    /** The bound TCP address (the real port when configured as 0), or null without a bound TCP listener. */
    public InetSocketAddress tcpAddress() {
        Channel ch = tcpChannel;
        return ch == null ? null : (InetSocketAddress) ch.localAddress();
    }

    /** The bound UDP address, or null without a bound UDP listener. */
    public InetSocketAddress udpAddress() {
        List<Channel> bound = udpChannels;
        return bound.isEmpty() ? null : (InetSocketAddress) bound.get(0).localAddress();
    }

    /** The bound QUIC address (its UDP port), or null without a bound QUIC listener. */
    public InetSocketAddress quicAddress() {
        QuicListener listener = quic;
        return listener == null ? null : listener.address();
    }

    /** Open QUIC streams, each a framed session. */
    public int activeQuicStreams() {
        QuicListener listener = quic;
        return listener == null ? 0 : listener.activeStreams();
    }

    /** Open QUIC connections. */
    public int activeQuicConnections() {
        QuicListener listener = quic;
        return listener == null ? 0 : listener.activeConnections();
    }

    /** UDP sockets bound to the UDP port, each served by its own event loop. */
    public int udpChannelCount() {
        return udpChannels.size();
    }

    public int activeConnections() {
        return connections.active();
    }

    /** UDP peers with a session, summed over the UDP channels. */
    public int activeUdpSessions() {
        return udpSessionCap.held();
    }

    /** Bytes queued for writing across all connections; backpressure keeps each near the high watermark. */
    public long pendingOutboundBytes() {
        return connections.pendingOutboundBytes();
    }

    /** Completes when a stop has finished. */
    public CompletableFuture<Void> terminationFuture() {
        return terminated;
    }

    /** A graceful {@link #stop()}, waited for. Must not be called from one of the server's event loops. */
    @Override
    public void close() {
        for (EventExecutor executor : loops.group()) {
            if (executor.inEventLoop()) {
                throw new IllegalStateException("close: called on an event loop (expected: another thread)");
            }
        }
        stop().join();
    }

    /**
     * Stops gracefully, within the configured shutdown timeout: stops accepting; lets each connection
     * finish the replies its handler still owes ({@link FrameHandler#owesReplies}), serving nothing new;
     * flushes and closes each one lingering; flushes and closes UDP; then closes what is left, stops the
     * event loops if the server owns them, and removes its meters. A stop during {@link #start()} waits
     * for the binds and then closes them; a stop before any start just releases. Idempotent.
     */
    public CompletableFuture<Void> stop() {
        State was = state.getAndUpdate(s -> s == State.TERMINATED ? s : State.STOPPING);
        switch (was) {
            case NEW -> release().whenComplete((x, y) -> terminate());
            case STARTING -> binding.whenComplete((v, e) -> {
                if (e == null) {
                    drainAndClose();
                }
                // Else the failed start releases and terminates.
            });
            case STARTED -> drainAndClose();
            default -> {
                // Stopping or stopped already.
            }
        }
        return terminated;
    }

    private void drainAndClose() {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        // Closed before the listener: a connection accepted from now on is closed unserved, and none is missed.
        for (Channel ch : connections.close()) {
            closing.add(drain(ch));
        }
        QuicListener quicListener = quic;
        if (quicListener != null) {
            // QUIC's streams share its socket: it closes once they have drained.
            List<CompletableFuture<Void>> streams = new ArrayList<>();
            for (Channel stream : quicListener.closeStreams()) {
                streams.add(drain(stream));
            }
            closing.add(CompletableFuture.allOf(streams.toArray(CompletableFuture[]::new))
                    .thenCompose(v -> quicListener.close()));
        }
        closing.add(closeListeners());
        long timeoutMillis = config.shutdownTimeout().toMillis();
        CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
                .thenApply(v -> false)
                .completeOnTimeout(true, timeoutMillis, TimeUnit.MILLISECONDS)
                .whenComplete((timedOut, e) -> {
                    List<Channel> left = new ArrayList<>(connections.channels());
                    if (quicListener != null) {
                        left.addAll(quicListener.openStreams());
                        quicListener.close();
                    }
                    for (Channel ch : left) {
                        if (Boolean.TRUE.equals(timedOut)) {
                            log.warn("stop: {} still open after {}; closing it", ch.remoteAddress(), config.shutdownTimeout());
                        }
                        ch.close();
                    }
                    release().whenComplete((x, y) -> {
                        log.info("shut down");
                        terminate();
                    });
                });
    }

    /** Lets a framed session finish the replies it owes and close lingering; completes when it has closed. */
    private static CompletableFuture<Void> drain(Channel ch) {
        ch.eventLoop().execute(() -> {
            TcpSessionHandler session = ch.pipeline().get(TcpSessionHandler.class);
            if (session != null) {
                session.drain();
            } else {
                ch.close();
            }
        });
        return closed(ch.closeFuture());
    }

    /** Closes the bound listeners, UDP after flushing what it has written. */
    private CompletableFuture<Void> closeListeners() {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        Channel tcp = tcpChannel;
        if (tcp != null) {
            closing.add(closed(tcp.close()));
        }
        for (Channel udp : udpChannels) {
            udp.eventLoop().execute(() -> {
                udp.flush();
                udp.close();
            });
            closing.add(closed(udp.closeFuture()));
        }
        return CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new));
    }

    /** Removes the meters, stops the Noise handshake threads and, if this server made them, the event loops. */
    private CompletableFuture<Void> release() {
        meters.forEach(TransportMeters::close);
        if (handshakeMeters != null) {
            handshakeMeters.close();
        }
        NoiseHandshakes noiseHandshakes = handshakes;
        if (noiseHandshakes != null) {
            noiseHandshakes.close();
        }
        return ownsLoops ? loops.shutdown() : CompletableFuture.completedFuture(null);
    }

    private void terminate() {
        state.set(State.TERMINATED);
        terminated.complete(null);
    }

    private static CompletableFuture<Void> closed(io.netty.util.concurrent.Future<?> future) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        future.addListener(f -> done.complete(null));
        return done;
    }

    private enum State {
        NEW("new"), STARTING("starting"), STARTED("started"), STOPPING("stopping"), TERMINATED("stopped");

        final String label;

        State(String label) {
            this.label = label;
        }
    }

    /** Builds a {@link RicochetServer}; only a handler ({@link #handler} or {@link #handlerPerSession}) is required. */
    public static final class Builder {
        private ServerConfig config = ServerConfig.builder().build();
        private Supplier<FrameHandler> handlers;
        private EventLoops loops;
        private boolean shutdownLoopsOnStop;
        private final Map<ChannelOption<?>, Object> childOptions = new LinkedHashMap<>();
        private PipelineCustomizer customizer = PipelineCustomizer.NONE;
        private Tls tls;
        private ServerNoiseConfig noise;
        private QuicSslContext quicTls;
        private MeterRegistry registry;
        private String name = "ricochet";
        private String tcpProtocolTag = Protocol.TCP.tag();
        private ConnectionBudget budget;

        private Builder() {
        }

        /** Listeners, framing and limits; the default is TCP on {@value ServerConfig#DEFAULT_PORT}. */
        public Builder config(ServerConfig config) {
            this.config = Checks.notNull("config", config);
            return this;
        }

        /** One handler for every session: it must be thread-safe (see {@link FrameHandler}). */
        public Builder handler(FrameHandler handler) {
            Checks.notNull("handler", handler);
            this.handlers = () -> handler;
            return this;
        }

        /** A handler of its own for each connection (and UDP peer), made when it opens: state needs no map or lock. */
        public Builder handlerPerSession(Supplier<FrameHandler> factory) {
            this.handlers = Checks.notNull("factory", factory);
            return this;
        }

        /**
         * Runs on {@code loops} instead of event loops of its own (made from the config's transport and
         * I/O threads); {@code shutdownOnStop} makes {@link #stop} shut them down too.
         */
        public Builder eventLoops(EventLoops loops, boolean shutdownOnStop) {
            this.loops = Checks.notNull("loops", loops);
            this.shutdownLoopsOnStop = shutdownOnStop;
            return this;
        }

        /** A socket option of each accepted connection; overrides Ricochet's for the same option. */
        public <T> Builder childOption(ChannelOption<T> option, T value) {
            childOptions.put(Checks.notNull("option", option), Checks.notNull("value", value));
            return this;
        }

        /** Adds handlers to each connection's pipeline, TLS for one (see {@link PipelineCustomizer}). */
        public Builder pipeline(PipelineCustomizer customizer) {
            this.customizer = Checks.notNull("customizer", customizer);
            return this;
        }

        /**
         * Serves TCP over TLS: build it from a {@link ServerTlsConfig}, or wrap a server {@code SslContext} of
         * one's own with {@link Tls#of}. A failed handshake closes the connection and counts as
         * {@code ricochet.protocol.errors{kind=tls}}.
         */
        public Builder tls(Tls tls) {
            this.tls = Checks.notNull("tls", tls).serverSide();
            return this;
        }

        /**
         * Serves TCP over the Noise channel (docs/protocol.md): clients pin the key pair's public key. A failed
         * handshake or a message that fails its check closes the connection and counts as
         * {@code ricochet.protocol.errors{kind=noise}}. Handshakes are computed on threads of the server's own,
         * within the config's bounds on handshakes in progress; one past them is shed (closed, counted in
         * {@code ricochet.noise.handshakes.shed}). Not with {@link #tls}.
         */
        public Builder noise(ServerNoiseConfig noise) {
            this.noise = Checks.notNull("noise", noise);
            return this;
        }

        /**
         * The QUIC listener's TLS 1.3, needed when the config has a {@code quicPort}: build it with
         * {@link ServerTlsConfig#buildQuic}{@code (Protocol.QUIC_ALPN)}. Clients must offer the same ALPN.
         */
        public Builder quic(QuicSslContext tls) {
            this.quicTls = Checks.notNull("tls", tls);
            return this;
        }

        /** Counts into {@code registry}; without one the server counts nothing. */
        public Builder meterRegistry(MeterRegistry registry) {
            this.registry = Checks.notNull("registry", registry);
            return this;
        }

        /** The {@code name} tag of the server's meters (default {@code ricochet}): unique per registry. */
        public Builder name(String name) {
            this.name = Checks.notNull("name", name);
            return this;
        }

        /** The {@code protocol} tag of the TCP listener's meters: {@code tcp}, or a layer's own ({@code rpc}). */
        public Builder tcpProtocolTag(String tag) {
            this.tcpProtocolTag = Checks.notNull("tag", tag);
            return this;
        }

        /** Every TCP connection also takes a place in {@code budget}, shared with the process's other listeners. */
        public Builder connectionBudget(ConnectionBudget budget) {
            this.budget = Checks.notNull("budget", budget);
            return this;
        }

        /**
         * The server, not started. Fails with {@link ServerStartException} if it must make its own event
         * loops and the config's forced transport cannot load.
         */
        public RicochetServer build() {
            Checks.notNull("handler", handlers);
            if (tls != null && noise != null) {
                throw new IllegalArgumentException("tls and noise on one server (expected: one or the other)");
            }
            if (config.quicEnabled() && quicTls == null) {
                throw new IllegalArgumentException("quicPort " + config.quicPort() + " without QUIC TLS (expected: "
                        + "builder.quic(context), QUIC always encrypts)");
            }
            if (loops != null) {
                return new RicochetServer(this, loops, shutdownLoopsOnStop);
            }
            EventLoops own;
            try {
                own = EventLoops.create(config.transport(), config.ioThreads(), "ricochet-io");
            } catch (IllegalStateException e) {
                throw new ServerStartException(e.getMessage(), e);
            }
            return new RicochetServer(this, own, true);
        }
    }
}
