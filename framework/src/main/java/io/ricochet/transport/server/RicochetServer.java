package io.ricochet.transport.server;

import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.session.FrameHandler;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server: {@linkplain Listener listeners} (TCP, TLS, Noise, UDP, QUIC, and layers such as RPC) on one group of event
 * loops, with one lifecycle, one drain, one registry of meters and one connection budget, each frame handed to a
 * {@link FrameHandler}. Built with {@link #builder()}; {@link #start()} binds, {@link #stop()} stops gracefully, and
 * {@link #close()} is a stop that waits.
 *
 * <pre>{@code
 * Listener tls = Listener.tcp(7443).tls(ServerTlsConfig.builder(cert, key).build().build());
 * RicochetServer server = RicochetServer.builder()
 *         .config(ServerConfig.builder().idleTimeout(Duration.ofSeconds(30)).build())
 *         .handler(new MyHandler())
 *         .listen(Listener.tcp(9000))
 *         .listen(tls)
 *         .meterRegistry(registry)
 *         .build();
 * server.startAndAwait();
 * System.out.println("tcp on " + server.tcpAddress() + ", tls on " + server.address(tls));
 * server.terminationFuture().join();
 * }</pre>
 *
 * <p>Longer than 300 lines: the lifecycle (start, drain, stop, release) is one state machine over the listeners' bindings,
 * kept in one place; the rest is its public accessors.
 */
public final class RicochetServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RicochetServer.class);

    private final ServerConfig config;
    private final EventLoops loops;
    private final boolean ownsLoops;
    private final ListenerContext context;
    private final List<ListenerBinding> bindings = new ArrayList<>();
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    /** The binds of the one start: a stop during the start waits for them. */
    private final CompletableFuture<Void> binding = new CompletableFuture<>();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    RicochetServer(ServerConfig config, List<Listener> listeners, ListenerContext context, boolean ownsLoops) {
        this.config = config;
        this.loops = context.loops();
        this.ownsLoops = ownsLoops;
        this.context = context;
        for (Listener listener : listeners) {
            bindings.add(ListenerBinding.of(listener, config, context));
        }
    }

    public static ServerBuilder builder() {
        return new ServerBuilder();
    }

    /**
     * Binds every listener; completes with this server once they are bound, or fails with a
     * {@link ServerStartException} (a port taken, an address wrong, meters already registered under
     * this name), having closed what it bound and released what it took. At most once, and not after
     * {@link #stop()}.
     */
    public CompletableFuture<RicochetServer> start() {
        if (!state.compareAndSet(State.NEW, State.STARTING)) {
            return CompletableFuture.failedFuture(new IllegalStateException("start: server is " + state.get().label
                    + " (expected: new; a server starts at most once)"));
        }
        CompletableFuture<RicochetServer> result = new CompletableFuture<>();
        // Each bind begun, settled or not: a failed start closes a socket only once its bind is over.
        List<CompletableFuture<Void>> binds = new ArrayList<>();
        try {
            // Every meter and service first: a clash must fail the start before anything is bound.
            bindings.forEach(ListenerBinding::prepare);
            bindings.forEach(b -> binds.add(b.bind()));
            CompletableFuture.allOf(binds.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> {
                if (e == null) {
                    binding.complete(null);
                } else {
                    binding.completeExceptionally(e);
                }
            });
        } catch (RuntimeException | Error e) {
            // An Error too (a native that will not link): the start must still fail, and release what it took.
            binding.completeExceptionally(e instanceof IllegalStateException
                    ? new ServerStartException("cannot start " + context.name() + ": " + e.getMessage(), e) : e);
        }
        binding.whenComplete((v, e) -> {
            if (e == null) {
                // A stop that came during the start has been waiting for the binds: it closes them now.
                state.compareAndSet(State.STARTING, State.STARTED);
                result.complete(this);
            } else {
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                state.set(State.STOPPING);
                CompletableFuture.allOf(binds.stream().map(b -> b.handle((x, y) -> null))
                                .toArray(CompletableFuture[]::new))
                        .thenCompose(x -> {
                            List<CompletableFuture<Void>> closing = new ArrayList<>();
                            bindings.forEach(b -> closing.add(b.abort()));
                            return CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new));
                        })
                        .whenComplete((x, y) -> release().whenComplete((z, w) -> {
                            terminate();
                            result.completeExceptionally(cause);
                        }));
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

    public ServerConfig config() {
        return config;
    }

    /** The transport actually running, AUTO resolved. */
    public TransportKind transport() {
        return loops.kind();
    }

    /** The listeners, in the order they were added. */
    public List<Listener> listeners() {
        return bindings.stream().map(b -> b.listener).toList();
    }

    /** Where {@code listener}, one of this server's, is bound (the real port when it asked for 0); null before. */
    public InetSocketAddress address(Listener listener) {
        for (ListenerBinding b : bindings) {
            if (b.listener == listener) {
                return b.address();
            }
        }
        throw new IllegalArgumentException("address: " + listener + " is not a listener of this server");
    }

    /** The first TCP listener's bound address (the real port when configured as 0), or null without one. */
    public InetSocketAddress tcpAddress() {
        return firstAddress(TcpBinding.class::isInstance);
    }

    /** The first UDP listener's bound address, or null without one. */
    public InetSocketAddress udpAddress() {
        return firstAddress(UdpBinding.class::isInstance);
    }

    /** The first QUIC listener's bound address (its UDP port), or null without one. */
    public InetSocketAddress quicAddress() {
        return firstAddress(QuicBinding.class::isInstance);
    }

    private InetSocketAddress firstAddress(Predicate<ListenerBinding> kind) {
        return bindings.stream().filter(kind).findFirst().map(ListenerBinding::address).orElse(null);
    }

    /** Open QUIC streams, each a framed session. */
    public int activeQuicStreams() {
        return sum(QuicBinding.class, QuicBinding::active);
    }

    /** Open QUIC connections. */
    public int activeQuicConnections() {
        return sum(QuicBinding.class, QuicBinding::activeConnections);
    }

    /** Sockets bound to the first UDP listener's port, each served by its own event loop. */
    public int udpChannelCount() {
        return bindings.stream().filter(UdpBinding.class::isInstance).findFirst()
                .map(b -> ((UdpBinding) b).channelCount()).orElse(0);
    }

    /** Open TCP connections, over every TCP listener. */
    public int activeConnections() {
        return sum(TcpBinding.class, TcpBinding::active);
    }

    /** UDP peers with a session, over every UDP listener and its channels. */
    public int activeUdpSessions() {
        return sum(UdpBinding.class, UdpBinding::active);
    }

    /** Bytes queued for writing across all connections; backpressure keeps each near the high watermark. */
    public long pendingOutboundBytes() {
        long total = 0;
        for (ListenerBinding b : bindings) {
            if (b instanceof TcpBinding tcp) {
                total += tcp.pendingOutboundBytes();
            }
        }
        return total;
    }

    private <B extends ListenerBinding> int sum(Class<B> kind, ToIntFunction<B> count) {
        int total = 0;
        for (ListenerBinding b : bindings) {
            if (kind.isInstance(b)) {
                total += count.applyAsInt(kind.cast(b));
            }
        }
        return total;
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
        List<CompletableFuture<Void>> draining = new ArrayList<>();
        bindings.forEach(b -> draining.add(b.drain()));
        CompletableFuture.allOf(draining.toArray(CompletableFuture[]::new))
                .thenApply(v -> false)
                .completeOnTimeout(true, config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((timedOut, e) -> {
                    try {
                        closeWhatIsLeft(Boolean.TRUE.equals(timedOut));
                    } finally {
                        release().whenComplete((x, y) -> {
                            log.info("shut down");
                            terminate();
                        });
                    }
                });
    }

    /** Closes the sessions a drain left open (saying so when the shutdown timeout ran out) and every socket. */
    private void closeWhatIsLeft(boolean timedOut) {
        for (ListenerBinding b : bindings) {
            for (Channel ch : b.openSessions()) {
                if (timedOut) {
                    log.warn("stop: {} still open after {}; closing it", ch.remoteAddress(), config.shutdownTimeout());
                }
                ch.close();
            }
            b.close();
        }
    }

    /** Removes the meters, stops the services and the Noise handshake threads and, if it made them, the loops. */
    private CompletableFuture<Void> release() {
        for (ListenerBinding b : bindings) {
            try {
                b.release();
            } catch (RuntimeException e) {
                // The others, and the loops, are released all the same, and the server terminates.
                log.warn("stop: {} not released cleanly", b.listener, e);
            }
        }
        return ownsLoops ? loops.shutdown() : CompletableFuture.completedFuture(null);
    }

    private void terminate() {
        state.set(State.TERMINATED);
        terminated.complete(null);
    }

    private enum State {
        NEW("new"), STARTING("starting"), STARTED("started"), STOPPING("stopping"), TERMINATED("stopped");

        final String label;

        State(String label) {
            this.label = label;
        }
    }
}
