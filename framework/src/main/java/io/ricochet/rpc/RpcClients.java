package io.ricochet.rpc;

import io.micrometer.core.instrument.MeterRegistry;
import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.client.FrameClient;
import io.ricochet.transport.session.FrameSession;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A group of RPC clients sharing event loops and meters: one per application, many connections. It
 * connects through a {@link FrameClient}. Without a registry it counts nothing.
 *
 * <pre>{@code
 * try (RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), registry)) {
 *     RpcClient client = clients.connect(new InetSocketAddress("127.0.0.1", 7100)).join();
 *     Greeting answer = client.call(GREET, Name.newBuilder().setName("ada").build()).join();
 * }
 * }</pre>
 */
public final class RpcClients implements AutoCloseable {
    public static final String METER_TAG = RpcService.METER_TAG;

    private final RpcClientConfig config;
    private final FrameClient frames;
    private final RpcMetrics metrics;
    private final RpcMetrics servedMetrics;
    private final Set<RpcClient> clients = ConcurrentHashMap.newKeySet();

    private RpcClients(RpcClientConfig config, MeterRegistry registry, EventLoops loops) {
        this.config = config;
        this.metrics = RpcMetrics.client(registry, config.name(), config.rpc());
        this.servedMetrics = RpcMetrics.server(registry, config.name(), config.rpc());
        // First, so a name already taken fails before any event loop or socket exists.
        RpcMetrics.register(metrics, servedMetrics);
        FrameClient.Builder builder = FrameClient.builder().lengthField(LengthField.FOUR).maxFrame(config.rpc().maxFrame())
                .connectTimeout(config.connectTimeout()).protocolTag(METER_TAG);
        if (loops != null) {
            builder.eventLoops(loops);
        } else {
            builder.transport(config.transport(), config.ioThreads());
        }
        if (config.tls() != null) {
            builder.tls(config.tls());
        } else if (config.noise() != null) {
            builder.noise(config.noise());
        }
        if (registry != null) {
            builder.meterRegistry(registry, config.name());
        }
        try {
            this.frames = builder.build();
        } catch (RuntimeException e) {
            metrics.close();
            servedMetrics.close();
            throw e;
        }
    }

    /**
     * A group on event loops of its own, counting into {@code registry} (null: counts nothing). Fails with
     * {@link IllegalStateException} if an RPC server or client group of the same {@link RpcClientConfig#name}
     * counts into {@code registry} already.
     */
    public static RpcClients create(RpcClientConfig config, MeterRegistry registry) {
        return new RpcClients(config, registry, null);
    }

    /** A group on {@code loops}, which the caller owns (a server's, say). */
    public static RpcClients create(RpcClientConfig config, MeterRegistry registry, EventLoops loops) {
        return new RpcClients(config, registry, loops);
    }

    /** A client connected to {@code target}; the future fails with {@code UNAVAILABLE} if it cannot connect. */
    public CompletableFuture<RpcClient> connect(InetSocketAddress target) {
        RpcClient client = new RpcClient(this, target);
        clients.add(client);
        CompletableFuture<RpcClient> connected = new CompletableFuture<>();
        // By hand, not thenApply: the failure stays the RpcException itself, not wrapped in a CompletionException.
        client.start().whenComplete((v, e) -> {
            if (e == null) {
                connected.complete(client);
            } else {
                connected.completeExceptionally(e);
            }
        });
        return connected;
    }

    RpcClientConfig config() {
        return config;
    }

    EventLoops eventLoops() {
        return frames.eventLoops();
    }

    CompletableFuture<FrameSession> connect(InetSocketAddress target, RpcConnection connection) {
        return frames.connect(target, connection.frameHandler());
    }

    RpcConnection newConnection(RequestRouter router, Consumer<RpcConnection> onOpen, Consumer<RpcConnection> onClose) {
        return new RpcConnection(config.rpc(), router, metrics, servedMetrics, config.keepalive(), true, null, onOpen,
                connection -> { }, onClose);
    }

    void forget(RpcClient client) {
        clients.remove(client);
    }

    /** The client I/O transport in use, AUTO resolved. */
    public TransportKind io() {
        return frames.eventLoops().kind();
    }

    /** Closes every client (no more reconnects), their connections, the event loops if the group made them, and its meters. */
    @Override
    public void close() {
        for (RpcClient client : Set.copyOf(clients)) {
            client.close();
        }
        frames.close();
        metrics.close();
        servedMetrics.close();
    }
}
