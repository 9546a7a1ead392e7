package io.ricochet.transport.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.ricochet.config.ServerConfig;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.Sessions;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link Listener} of a running server: its meters and service, its socket, and its sessions' drain. The server
 * calls {@link #prepare} for every listener before it binds any, so a clash fails the start with nothing bound.
 */
abstract class ListenerBinding {
    private static final Logger log = LoggerFactory.getLogger(RicochetServer.class);
    final Listener listener;
    /** The server's config as this listener sees it (see {@link Listener#resolve}). */
    final ServerConfig config;
    final ListenerContext context;
    TransportCounters counters = TransportCounters.NONE;
    Supplier<FrameHandler> handlers;
    private TransportMeters meters;
    private ListenerService.Started started;

    ListenerBinding(Listener listener, ServerConfig config, ListenerContext context) {
        this.listener = listener;
        this.config = config;
        this.context = context;
    }

    static ListenerBinding of(Listener listener, ServerConfig server, ListenerContext context) {
        ServerConfig config = listener.resolve(server);
        return switch (listener.kind()) {
            case TCP -> new TcpBinding(listener, config, context);
            case UDP -> new UdpBinding(listener, config, context);
            case QUIC -> new QuicBinding(listener, config, context);
        };
    }

    /** The {@code name} tag of this listener's meters. */
    final String meterName() {
        return listener.name() != null ? listener.name() : context.name();
    }

    final PipelineCustomizer customizer() {
        return listener.customizer() != null ? listener.customizer() : context.customizer();
    }

    /** Registers the meters and starts the service; throws {@link IllegalStateException} on a meter clash. */
    void prepare() {
        // The service first: a layer's own meters name the clash more plainly than the transport's.
        ListenerService service = listener.service() != null ? listener.service() : context.defaultService();
        ListenerService.Started made = service.start(context.registry(), meterName());
        started = made;
        handlers = made::handler;
        if (context.registry() != null) {
            meters = TransportMeters.register(context.registry(), meterName(), listener.protocol(), "server",
                    context.loops().kind().label(), this::active);
            counters = meters;
        }
    }

    /** Binds the socket; fails with a {@link ServerStartException} naming the port. */
    abstract CompletableFuture<Void> bind();

    /** The bound address, or null before the bind. */
    abstract InetSocketAddress address();

    /** Sessions open now: connections, UDP peers or QUIC streams. */
    abstract int active();

    /** Admits nothing more, lets each session finish what it owes, and closes the socket; completes when all have. */
    abstract CompletableFuture<Void> drain();

    /** The sessions still open, which a stop past its timeout closes regardless. */
    abstract Collection<Channel> openSessions();

    /** Closes the socket (and a QUIC listener's connections); completes when it is closed. */
    abstract CompletableFuture<Void> close();

    /** After a failed start: admits nothing more, closes at once what was accepted meanwhile, and the socket. */
    CompletableFuture<Void> abort() {
        return close();
    }

    /**
     * Removes the meters and stops what the service's start made; after the close. Each step runs whatever the one
     * before it did: a service's {@code stop} that throws is logged, and the release goes on.
     */
    void release() {
        if (meters != null) {
            meters.close();
        }
        ListenerService.Started made = started;
        started = null;
        if (made != null) {
            try {
                made.stop();
            } catch (RuntimeException e) {
                log.warn("{}: its service failed to stop", listener, e);
            }
        }
    }

    /** A future of the bound channel that fails with a {@link ServerStartException} naming the port. */
    final CompletableFuture<Channel> bound(ChannelFuture future, int port) {
        CompletableFuture<Channel> result = new CompletableFuture<>();
        future.addListener(f -> {
            if (f.isSuccess()) {
                result.complete(future.channel());
            } else {
                result.completeExceptionally(new ServerStartException("cannot bind " + kindLabel() + " "
                        + config.host() + ":" + port + ": " + f.cause().getMessage(), f.cause()));
            }
        });
        return result;
    }

    /** Lets a framed session finish the replies it owes and close lingering; completes when it has closed. */
    static CompletableFuture<Void> drain(Channel ch) {
        Sessions.drain(ch);
        return closed(ch.closeFuture());
    }

    static CompletableFuture<Void> closed(io.netty.util.concurrent.Future<?> future) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        future.addListener(f -> done.complete(null));
        return done;
    }

    final String kindLabel() {
        return listener.kind().name().toLowerCase(java.util.Locale.ROOT);
    }

    static String hostPort(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }
}
