package io.ricochet.rpc;

import io.micrometer.core.instrument.MeterRegistry;
import io.ricochet.config.Checks;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.server.ServerBuilder;
import io.ricochet.transport.server.ServerStartException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The tests' RPC-only server: a {@link RicochetServer} with one {@link RpcService} listener on the config's TCP port,
 * set up in one builder as the RPC tests have always made theirs. Applications build a {@link RicochetServer} and
 * {@code listen(rpcService.listener(port))}.
 */
public final class RpcServer implements AutoCloseable {
    public static final String METER_TAG = RpcService.METER_TAG;

    private final RicochetServer server;
    private final RpcService service;

    private RpcServer(Builder b) {
        RpcService.Builder rpc = RpcService.builder().rpc(b.rpc).dispatcher(b.dispatcher).agent(b.agent);
        if (b.authenticator != null) {
            rpc.authenticator(b.authenticator);
        }
        this.service = rpc.build();
        Listener listener = service.listener(b.config.tcpPort()).pipeline(b.customizer);
        listener = b.tls != null ? listener.tls(b.tls) : b.noise != null ? listener.noise(b.noise) : listener;
        ServerBuilder frames = RicochetServer.builder().config(b.config).name(b.name).listen(listener);
        if (b.registry != null) {
            frames.meterRegistry(b.registry);
        }
        if (b.loops != null) {
            frames.eventLoops(b.loops, b.shutdownLoopsOnStop);
        }
        if (b.budget != null) {
            frames.connectionBudget(b.budget);
        }
        this.server = frames.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Registers the RPC meters and binds the TCP port; completes with this server, or fails with a
     * {@link ServerStartException} (a port taken, or meters of the same {@code name} already on the
     * registry), having removed its meters and released what it took. At most once.
     */
    public CompletableFuture<RpcServer> start() {
        return server.start().thenApply(s -> this);
    }

    /** {@link #start()} and waits: throws {@link ServerStartException} if it cannot start. */
    public RpcServer startAndAwait() {
        try {
            return start().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** Bytes queued for writing across this server's connections. */
    public long pendingOutboundBytes() {
        return server.pendingOutboundBytes();
    }

    public InetSocketAddress address() {
        return server.tcpAddress();
    }

    /** The agent, if this server was built with one; else null. */
    public RpcAgent agent() {
        return service.agent();
    }

    public int activeConnections() {
        return server.activeConnections();
    }

    /** Completes when the server has stopped. */
    public CompletableFuture<Void> terminationFuture() {
        return server.terminationFuture();
    }

    /**
     * Stops gracefully: stops accepting, lets each connection finish the requests it is serving and the
     * calls it is waiting on (within the shutdown timeout), then closes them and removes the meters.
     */
    public CompletableFuture<Void> stop() {
        return server.stop();
    }

    @Override
    public void close() {
        server.close();
    }

    /** Builds an {@link RpcServer}; a {@link #dispatcher} is required. */
    public static final class Builder {
        private ServerConfig config = ServerConfig.builder().tcpPort(7100).build();
        private RpcConfig rpc = RpcConfig.DEFAULTS;
        private RpcDispatcher dispatcher;
        private boolean agent;
        private MeterRegistry registry;
        private String name = METER_TAG;
        private EventLoops loops;
        private boolean shutdownLoopsOnStop;
        private ConnectionBudget budget;
        private PipelineCustomizer customizer = PipelineCustomizer.NONE;
        private Tls tls;
        private ServerNoiseConfig noise;
        private RpcAuthenticator authenticator;

        private Builder() {
        }

        /** The TCP port and its limits; its UDP and QUIC ports and framing are not used (RPC runs on TCP, 4-byte lengths). */
        public Builder config(ServerConfig config) {
            this.config = Checks.notNull("config", config);
            return this;
        }

        /** The RPC limits; the frame limit follows from {@link RpcConfig#maxPayload}. */
        public Builder rpc(RpcConfig rpc) {
            this.rpc = Checks.notNull("rpc", rpc);
            return this;
        }

        public Builder dispatcher(RpcDispatcher dispatcher) {
            this.dispatcher = Checks.notNull("dispatcher", dispatcher);
            return this;
        }

        /** Serves the agent too: clients register URIs and others call them through it. Off by default. */
        public Builder agent(boolean agent) {
            this.agent = agent;
            return this;
        }

        /** Counts into {@code registry}, tagged {@code name} (default {@value RpcServer#METER_TAG}). */
        public Builder meterRegistry(MeterRegistry registry) {
            this.registry = Checks.notNull("registry", registry);
            return this;
        }

        /**
         * The {@code name} tag of its meters, transport and RPC (default {@value RpcServer#METER_TAG}): each
         * server and client group on one registry needs its own, or {@link #start} fails.
         */
        public Builder name(String name) {
            this.name = Checks.notNull("name", name);
            return this;
        }

        public Builder eventLoops(EventLoops loops, boolean shutdownOnStop) {
            this.loops = Checks.notNull("loops", loops);
            this.shutdownLoopsOnStop = shutdownOnStop;
            return this;
        }

        public Builder connectionBudget(ConnectionBudget budget) {
            this.budget = Checks.notNull("budget", budget);
            return this;
        }

        public Builder pipeline(PipelineCustomizer customizer) {
            this.customizer = Checks.notNull("customizer", customizer);
            return this;
        }

        /**
         * Admits only connections whose client authenticates ({@code rpc.auth}) with a credential
         * {@code authenticator} accepts, such as {@link RpcAuthenticator#bearerToken}. Without one, anyone who
         * can connect may call, and register agent routes; mutual TLS ({@link #tls}) keeps strangers out at the
         * handshake instead. A connection that has not authenticated within {@link RpcConfig#authTimeout} (10 s by
         * default) of its accept is closed. Refusals are logged at WARN, at most one line per 10 s for the server.
         */
        public Builder authenticator(RpcAuthenticator authenticator) {
            this.authenticator = Checks.notNull("authenticator", authenticator);
            return this;
        }

        /** Serves RPC over the Noise channel (see {@link Listener#noise}). */
        public Builder noise(ServerNoiseConfig noise) {
            this.noise = Checks.notNull("noise", noise);
            return this;
        }

        /** Serves RPC over TLS (see {@link Listener#tls}). */
        public Builder tls(Tls tls) {
            this.tls = Checks.notNull("tls", tls).serverSide();
            return this;
        }

        public RpcServer build() {
            Checks.notNull("dispatcher", dispatcher);
            return new RpcServer(this);
        }
    }
}
