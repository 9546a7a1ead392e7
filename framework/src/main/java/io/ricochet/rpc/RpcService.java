package io.ricochet.rpc;

import io.micrometer.core.instrument.MeterRegistry;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.ListenerService;
import java.time.Duration;

/**
 * RPC as a listener of a {@link io.ricochet.transport.server.RicochetServer}: the methods of an {@link RpcDispatcher}, which
 * may change while it runs, and, when asked for, the agent's routes, served on any TCP listener it makes, plaintext,
 * TLS or Noise, beside the server's other listeners, with their lifecycle, drain and connection budget. Its transport
 * meters are tagged {@code protocol=rpc}, and its RPC meters ({@code ricochet.rpc.*}) carry the listener's name.
 *
 * <pre>{@code
 * RpcDispatcher methods = new RpcDispatcher();
 * methods.register(GREET, RpcMethod.sync(name -> Greeting.newBuilder().setText("hello " + name.getName()).build()));
 * RpcService rpc = RpcService.builder().dispatcher(methods).build();
 * RicochetServer server = RicochetServer.builder()
 *         .handler(new ReverseEchoHandler())
 *         .listen(Listener.tcp(7000))
 *         .listen(rpc.listener(7100))
 *         .listen(rpc.listener(7101).tls(tls).name("rpc-tls"))
 *         .meterRegistry(registry)
 *         .build();
 * }</pre>
 */
public final class RpcService {
    /** The {@code protocol} tag of its listeners' meters. */
    public static final String METER_TAG = "rpc";

    private final RpcConfig config;
    private final RequestRouter router;
    private final RpcAgent agent;
    private final AuthGate gate;

    private RpcService(Builder b) {
        this.config = b.rpc;
        this.agent = b.agent ? new RpcAgent(b.dispatcher, b.rpc) : null;
        this.router = new RequestRouter(b.dispatcher, agent);
        this.gate = b.authenticator == null ? null : new AuthGate(b.authenticator, b.rpc);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * A TCP listener on {@code port} (0 for an ephemeral one) that serves this RPC: envelopes in 4-byte frames up to
     * {@link RpcConfig#maxFrame}, tagged {@code protocol=rpc}. Add {@link Listener#tls}, {@link Listener#noise},
     * {@link Listener#idleTimeout} or {@link Listener#name} as for any listener. Each listener counts its calls apart.
     */
    public Listener listener(int port) {
        return Listener.tcp(port).protocol(METER_TAG).framing(LengthField.FOUR, config.maxFrame())
                .service(this::start);
    }

    /** The agent, if this service was built with one; else null. */
    public RpcAgent agent() {
        return agent;
    }

    /** One listener's calls: its meters, registered at its server's start and removed at its stop, and a connection
     * per session. Each start makes its own, so one listener value may serve several listeners and servers. */
    private ListenerService.Started start(MeterRegistry registry, String name) {
        RpcMetrics served = RpcMetrics.server(registry, name, config);
        RpcMetrics forwarded = RpcMetrics.client(registry, name, config);
        RpcMetrics.register(served, forwarded);
        return ListenerService.started(() -> new RpcConnection(config, router, forwarded, served, Duration.ZERO, false,
                gate, connection -> { }, agent == null ? connection -> { } : agent::dropRoutes,
                connection -> { }).frameHandler(), () -> {
                    served.close();
                    forwarded.close();
                });
    }

    /** Builds an {@link RpcService}; a {@link #dispatcher} is required. */
    public static final class Builder {
        private RpcConfig rpc = RpcConfig.DEFAULTS;
        private RpcDispatcher dispatcher;
        private boolean agent;
        private RpcAuthenticator authenticator;

        private Builder() {
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

        /**
         * Admits only connections whose client authenticates ({@code rpc.auth}) with a credential
         * {@code authenticator} accepts, such as {@link RpcAuthenticator#bearerToken}. Without one, anyone who
         * can connect may call, and register agent routes; mutual TLS keeps strangers out at the handshake instead.
         * A connection that has not authenticated within {@link RpcConfig#authTimeout} (10 s by default) of its
         * accept is closed. Refusals are logged at WARN, at most one line per 10 s for the service.
         */
        public Builder authenticator(RpcAuthenticator authenticator) {
            this.authenticator = Checks.notNull("authenticator", authenticator);
            return this;
        }

        public RpcService build() {
            Checks.notNull("dispatcher", dispatcher);
            return new RpcService(this);
        }
    }
}
