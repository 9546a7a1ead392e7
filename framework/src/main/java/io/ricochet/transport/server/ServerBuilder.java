package io.ricochet.transport.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.Checks;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.internal.OptionalLibrary;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.session.FrameHandler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Builds a {@link RicochetServer}: its {@linkplain #listen listeners}, the config they share, the handler of those
 * without one of their own, and where it counts. Without any {@link #listen} call the server binds the ports its
 * config enables (TCP, UDP, QUIC), as a server of one listener per transport.
 *
 * <pre>{@code
 * RicochetServer server = RicochetServer.builder()
 *         .handler(new MyHandler())
 *         .listen(Listener.tcp(7000))
 *         .listen(Listener.udp(7000))
 *         .meterRegistry(registry)
 *         .build();
 * }</pre>
 */
public final class ServerBuilder {
    private ServerConfig config = ServerConfig.builder().build();
    private final List<Listener> listeners = new ArrayList<>();
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
    private String tcpProtocolTag;
    private ConnectionBudget budget;

    ServerBuilder() {
    }

    /**
     * What every listener shares: host, framing, limits and timeouts. Its ports are bound only when no {@link #listen}
     * is called; the default is TCP on {@value ServerConfig#DEFAULT_PORT}.
     */
    public ServerBuilder config(ServerConfig config) {
        this.config = Checks.notNull("config", config);
        return this;
    }

    /** Adds a port; each listener binds at start, in the order added. */
    public ServerBuilder listen(Listener listener) {
        listeners.add(Checks.notNull("listener", listener));
        return this;
    }

    /** One handler for the sessions of every listener without its own: it must be thread-safe (see {@link FrameHandler}). */
    public ServerBuilder handler(FrameHandler handler) {
        Checks.notNull("handler", handler);
        this.handlers = () -> handler;
        return this;
    }

    /** A handler of its own for each connection (and UDP peer), made when it opens: state needs no map or lock. */
    public ServerBuilder handlerPerSession(Supplier<FrameHandler> factory) {
        this.handlers = Checks.notNull("factory", factory);
        return this;
    }

    /**
     * Runs on {@code loops} instead of event loops of its own (made from the config's transport and
     * I/O threads); {@code shutdownOnStop} makes {@link RicochetServer#stop} shut them down too.
     */
    public ServerBuilder eventLoops(EventLoops loops, boolean shutdownOnStop) {
        this.loops = Checks.notNull("loops", loops);
        this.shutdownLoopsOnStop = shutdownOnStop;
        return this;
    }

    /** A socket option of each accepted connection; overrides Ricochet's for the same option. */
    public <T> ServerBuilder childOption(ChannelOption<T> option, T value) {
        childOptions.put(Checks.notNull("option", option), Checks.notNull("value", value));
        return this;
    }

    /** Adds handlers to the pipelines of every listener without a customizer of its own (see {@link PipelineCustomizer}). */
    public ServerBuilder pipeline(PipelineCustomizer customizer) {
        this.customizer = Checks.notNull("customizer", customizer);
        return this;
    }

    /**
     * Serves the config's TCP port over TLS.
     *
     * @deprecated add {@code Listener.tcp(port).tls(tls)} with {@link #listen} instead
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public ServerBuilder tls(Tls tls) {
        this.tls = Checks.notNull("tls", tls).serverSide();
        return this;
    }

    /**
     * Serves the config's TCP port over the Noise channel.
     *
     * @deprecated add {@code Listener.tcp(port).noise(noise)} with {@link #listen} instead
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public ServerBuilder noise(ServerNoiseConfig noise) {
        OptionalLibrary.NOISE.require();
        this.noise = Checks.notNull("noise", noise);
        return this;
    }

    /**
     * The TLS 1.3 of the config's QUIC port ({@link ServerTlsConfig#buildQuic}).
     *
     * @deprecated add {@code Listener.quic(port, tls)} with {@link #listen} instead
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public ServerBuilder quic(QuicSslContext tls) {
        OptionalLibrary.QUIC.require();
        this.quicTls = Checks.notNull("tls", tls);
        return this;
    }

    /** Counts into {@code registry}; without one the server counts nothing. */
    public ServerBuilder meterRegistry(MeterRegistry registry) {
        this.registry = Checks.notNull("registry", registry);
        return this;
    }

    /** The {@code name} tag of the server's meters (default {@code ricochet}): unique per registry. */
    public ServerBuilder name(String name) {
        this.name = Checks.notNull("name", name);
        return this;
    }

    /**
     * The {@code protocol} tag of the config's TCP port's meters.
     *
     * @deprecated set {@link Listener#protocol} on a listener instead
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public ServerBuilder tcpProtocolTag(String tag) {
        this.tcpProtocolTag = Checks.notNull("tag", tag);
        return this;
    }

    /**
     * Every TCP connection also takes a place in {@code budget}, which other servers of the process may share; by
     * default the server's listeners share one of the config's {@code maxConnections}, so a busy listener can fill it
     * for all: give a budget larger than one listener's cap (the echo server gives the open-file limit's) to keep a
     * flood on one port from refusing the others.
     */
    public ServerBuilder connectionBudget(ConnectionBudget budget) {
        this.budget = Checks.notNull("budget", budget);
        return this;
    }

    /**
     * The server, not started. Fails with {@link IllegalArgumentException} naming what is missing or clashes, and
     * with {@link ServerStartException} if it must make its own event loops and the config's forced transport
     * cannot load.
     */
    public RicochetServer build() {
        List<Listener> resolved = listeners.isEmpty() ? fromConfig() : listenersOnly();
        Set<String> tags = new HashSet<>();
        for (Listener listener : resolved) {
            if (listener.service() == null && handlers == null) {
                throw new IllegalArgumentException("handler: null for " + listener
                        + " (expected: builder.handler(...), or one on the listener)");
            }
            String meterName = listener.name() != null ? listener.name() : name;
            if (!tags.add(meterName + "/" + listener.protocol())) {
                throw new IllegalArgumentException("listeners: two with name " + meterName + " and protocol "
                        + listener.protocol() + " (expected: a name or protocol of its own for each, as their meters "
                        + "are told apart by them)");
            }
        }
        boolean owns = loops == null;
        EventLoops running = loops;
        if (owns) {
            try {
                running = EventLoops.create(config.transport(), config.ioThreads(), "ricochet-io");
            } catch (IllegalStateException e) {
                throw new ServerStartException(e.getMessage(), e);
            }
        }
        ConnectionBudget shared = budget != null ? budget : new ConnectionBudget(config.maxConnections());
        ListenerContext context = new ListenerContext(running, registry, name,
                handlers == null ? null : ListenerService.of(handlers), customizer, Map.copyOf(childOptions), shared);
        return new RicochetServer(config, resolved, context, owns || shutdownLoopsOnStop);
    }

    /** The listeners of the config's ports, with the deprecated setters' security. */
    private List<Listener> fromConfig() {
        if (handlers == null) {
            throw new IllegalArgumentException("handler: null (expected: builder.handler(...) or handlerPerSession(...))");
        }
        if (tls != null && noise != null) {
            throw new IllegalArgumentException("tls and noise on one server (expected: one or the other)");
        }
        if (config.quicEnabled() && quicTls == null) {
            throw new IllegalArgumentException("quicPort " + config.quicPort() + " without QUIC TLS (expected: "
                    + "builder.quic(context), QUIC always encrypts)");
        }
        List<Listener> fromPorts = new ArrayList<>();
        if (config.tcpEnabled()) {
            Listener tcp = Listener.tcp(config.tcpPort());
            tcp = tls != null ? tcp.tls(tls) : noise != null ? tcp.noise(noise) : tcp;
            // Before listeners, a TLS or Noise port was tagged tcp unless told otherwise: kept so.
            fromPorts.add(tcp.protocol(tcpProtocolTag != null ? tcpProtocolTag : Protocol.TCP.tag()));
        }
        if (config.udpEnabled()) {
            fromPorts.add(Listener.udp(config.udpPort()));
        }
        if (config.quicEnabled()) {
            fromPorts.add(Listener.quic(config.quicPort(), quicTls));
        }
        return fromPorts;
    }

    private List<Listener> listenersOnly() {
        if (tls != null || noise != null || quicTls != null || tcpProtocolTag != null) {
            throw new IllegalArgumentException("tls, noise, quic or tcpProtocolTag with listen(...) (expected: set "
                    + "them on the listener, e.g. Listener.tcp(port).tls(tls))");
        }
        return List.copyOf(listeners);
    }
}
