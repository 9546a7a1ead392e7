package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** An RPC server on an ephemeral loopback port and a client group pointed at it. */
final class RpcFixture implements AutoCloseable {
    final RpcDispatcher methods = new RpcDispatcher();
    final SimpleMeterRegistry serverRegistry = new SimpleMeterRegistry();
    final SimpleMeterRegistry clientRegistry = new SimpleMeterRegistry();
    final RpcServer server;
    final RpcClients clients;

    RpcFixture() {
        this(RpcConfig.DEFAULTS, RpcClientConfig.builder().build());
    }

    RpcFixture(RpcConfig serverRpc, RpcClientConfig clientConfig) {
        this(TransportKind.AUTO, serverRpc, clientConfig);
    }

    /** A server on {@code transport}, for tests of what differs between them (how a peer's reset is seen). */
    RpcFixture(TransportKind transport, RpcConfig serverRpc, RpcClientConfig clientConfig) {
        server = RpcServer.builder().config(TestServers.config(transport).idleTimeout(Duration.ofMinutes(5)).build())
                .rpc(serverRpc).dispatcher(methods).agent(true).meterRegistry(serverRegistry).build().startAndAwait();
        clients = RpcClients.create(clientConfig, clientRegistry);
    }

    RpcClient client() {
        return await(clients.connect(server.address()));
    }

    static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("no answer within 20 s", e);
        }
    }

    /** The status a call failed with; fails the test if it succeeded or did not end. */
    static RpcStatus failure(CompletableFuture<?> future) {
        try {
            future.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RpcException r) {
                return r.status();
            }
            throw new AssertionError("failed with " + e.getCause(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("no answer within 20 s", e);
        }
        throw new AssertionError("succeeded; expected a failure");
    }

    static ByteString bytes(String s) {
        return ByteString.copyFromUtf8(s);
    }

    @Override
    public void close() {
        clients.close();
        server.close();
    }
}
