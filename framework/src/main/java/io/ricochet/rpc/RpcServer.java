package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.MeterRegistry;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.transport.RicochetServer;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An RPC server: a {@link RicochetServer} whose TCP frames carry envelopes (4-byte length field),
 * serving the methods of an {@link RpcDispatcher}, which may change while it runs, and the agent's
 * routes. Its transport meters are tagged {@code transport=rpc}.
 *
 * <pre>{@code
 * RpcDispatcher methods = new RpcDispatcher();
 * methods.register("greet", RpcHandler.sync(name -> ByteString.copyFromUtf8("hello " + name.toStringUtf8())));
 * try (RpcServer server = RpcServer.start(ServerConfig.builder().tcpPort(7100).build(), RpcConfig.DEFAULTS,
 *         methods, registry)) {
 *     server.terminationFuture().join();
 * }
 * }</pre>
 */
public final class RpcServer implements AutoCloseable {
    public static final String METER_TAG = "rpc";

    private final RicochetServer server;
    private final RpcAgent agent;

    private RpcServer(RicochetServer server, RpcAgent agent) {
        this.server = server;
        this.agent = agent;
    }

    /**
     * Binds {@code serverConfig}'s TCP port (its UDP port and frame settings are replaced: RPC runs on
     * TCP with a 4-byte length field and frames sized by {@code rpcConfig}).
     */
    public static RpcServer start(ServerConfig serverConfig, RpcConfig rpcConfig, RpcDispatcher dispatcher,
            MeterRegistry registry) {
        return start(serverConfig, rpcConfig, dispatcher, registry, null);
    }

    /**
     * As {@link #start(ServerConfig, RpcConfig, RpcDispatcher, MeterRegistry)}, with every connection also
     * taking a place in {@code budget}, shared with the process's other listeners (null for none).
     */
    public static RpcServer start(ServerConfig serverConfig, RpcConfig rpcConfig, RpcDispatcher dispatcher,
            MeterRegistry registry, ConnectionBudget budget) {
        if (!serverConfig.tcpEnabled()) {
            throw new IllegalArgumentException("tcpPort: " + serverConfig.tcpPort() + " (expected: a port for RPC)");
        }
        ServerConfig config = serverConfig.toBuilder().udpPort(ServerConfig.DISABLED).lengthField(LengthField.FOUR)
                .maxFrame(rpcConfig.maxFrame()).build();
        RpcAgent agent = new RpcAgent(dispatcher, rpcConfig);
        RpcMetrics serverMetrics = RpcMetrics.server(registry, rpcConfig);
        RpcMetrics forwardMetrics = RpcMetrics.client(registry, rpcConfig);
        RequestRouter router = new ServerRouter(dispatcher, agent);
        RpcFrameHandler frames = new RpcFrameHandler(
                session -> new RpcConnection(session, rpcConfig, router, forwardMetrics, serverMetrics),
                connection -> { },
                agent::dropRoutes);
        return new RpcServer(RicochetServer.start(config, frames, registry, METER_TAG, budget), agent);
    }

    /** The server's own methods first, then the agent's routes. */
    private record ServerRouter(RpcDispatcher dispatcher, RpcAgent agent) implements RequestRouter {
        @Override
        public CompletionStage<ByteString> route(RpcRequest request) {
            String method = request.method();
            if (method.equals(RpcAgent.REGISTER)) {
                return agent.register(request);
            }
            if (method.equals(RpcAgent.UNREGISTER)) {
                return agent.unregister(request);
            }
            RpcDispatcher.Registration registration = dispatcher.lookup(method);
            if (registration != null) {
                return Invocation.invoke(registration, request);
            }
            RpcConnection owner = agent.owner(method);
            if (owner != null) {
                return agent.forward(owner, request);
            }
            return Invocation.notFound(method);
        }

        @Override
        public String meterTag(String method) {
            if (method.equals(RpcAgent.REGISTER) || method.equals(RpcAgent.UNREGISTER) || dispatcher.contains(method)) {
                return method;
            }
            return agent.owner(method) != null ? RpcMetrics.AGENT_ROUTE : RpcMetrics.UNKNOWN_METHOD;
        }
    }

    /** Bytes queued for writing across this server's connections. */
    public long pendingOutboundBytes() {
        return server.pendingOutboundBytes();
    }

    public InetSocketAddress address() {
        return server.tcpAddress();
    }

    public RpcAgent agent() {
        return agent;
    }

    public int activeConnections() {
        return server.activeConnections();
    }

    /** Completes when the server has shut down. */
    public CompletableFuture<Void> terminationFuture() {
        return server.terminationFuture();
    }

    @Override
    public void close() {
        server.close();
    }
}
