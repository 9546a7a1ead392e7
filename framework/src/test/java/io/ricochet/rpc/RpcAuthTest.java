package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A server that requires a bearer token: who may call, register and unregister. */
class RpcAuthTest {
    private static final String TOKEN = "correct horse battery staple";
    private static final RpcHandler REVERSE = RpcHandler.sync(TestMethods::reverse);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void anUnauthenticatedPeerCanNeitherCallNorRegisterNorUnregister() {
        try (RpcServer server = server(RpcAuthenticator.bearerToken(TOKEN));
             RpcClients anonymous = RpcClients.create(RpcClientConfig.builder().build(), null);
             RpcClients known = RpcClients.create(RpcClientConfig.builder().bearerToken(TOKEN).build(), null)) {
            RpcClient owner = await(known.connect(server.address()));
            await(owner.serve("svc/a", REVERSE));
            RpcClient stranger = await(anonymous.connect(server.address()));
            assertEquals(RpcStatus.UNAUTHENTICATED, failure(stranger.call("echo.reverse", bytes("abc"))));
            assertEquals(RpcStatus.UNAUTHENTICATED, failure(stranger.call("svc/a", bytes("abc"))));
            assertEquals(RpcStatus.UNAUTHENTICATED, failure(stranger.serve("svc/b", REVERSE)));
            assertEquals(RpcStatus.UNAUTHENTICATED, failure(stranger.unserve("svc/a")));
            assertEquals(1, server.agent().routes(), "the stranger changed the routes");
            assertEquals("cba", await(owner.call("svc/a", bytes("abc"))).toStringUtf8());
            assertEquals("cba", await(owner.call("echo.reverse", bytes("abc"))).toStringUtf8());
        }
    }

    @Test
    void aWrongTokenFailsTheConnectAndIsCounted() {
        try (RpcServer server = server(RpcAuthenticator.bearerToken(TOKEN));
             RpcClients wrong = RpcClients.create(RpcClientConfig.builder().bearerToken("guess").build(), null)) {
            RpcException e = assertThrows(RpcException.class, () -> await(wrong.connect(server.address())));
            assertEquals(RpcStatus.UNAUTHENTICATED, e.status());
            await().atMost(10, TimeUnit.SECONDS).until(() -> registry.find(RpcMetrics.SERVER_REQUESTS)
                    .tag("method", RpcConnection.AUTH).tag("status", "UNAUTHENTICATED").timer() != null);
            await().atMost(10, TimeUnit.SECONDS).until(() -> server.activeConnections() == 0);
        }
    }

    @Test
    void anotherAuthenticatedClientCannotUnregisterOrTakeOverARoute() {
        try (RpcServer server = server(RpcAuthenticator.bearerToken(TOKEN));
             RpcClients clients = RpcClients.create(RpcClientConfig.builder().bearerToken(TOKEN).build(), null)) {
            RpcClient a = await(clients.connect(server.address()));
            RpcClient b = await(clients.connect(server.address()));
            await(a.serve("svc/mine", REVERSE));
            assertEquals(RpcStatus.NOT_FOUND, failure(b.unserve("svc/mine")));
            assertEquals(RpcStatus.ALREADY_EXISTS, failure(b.serve("svc/mine", RpcHandler.sync(p -> bytes("hijacked")))));
            assertEquals("cba", await(b.call("svc/mine", bytes("abc"))).toStringUtf8());
        }
    }

    @Test
    void aTokenIsHarmlessToAServerThatAsksForNone() {
        try (RpcServer server = server(null);
             RpcClients clients = RpcClients.create(RpcClientConfig.builder().bearerToken(TOKEN).build(), null)) {
            RpcClient client = await(clients.connect(server.address()));
            assertEquals("cba", await(client.call("echo.reverse", bytes("abc"))).toStringUtf8());
        }
    }

    @Test
    void anEmptyTokenIsAConfigurationError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RpcAuthenticator.bearerToken(""));
        assertEquals("token: empty (expected: a secret of at least one character)", e.getMessage());
    }

    private RpcServer server(RpcAuthenticator authenticator) {
        RpcDispatcher methods = new RpcDispatcher();
        methods.register("echo.reverse", REVERSE);
        RpcServer.Builder builder = RpcServer.builder().config(TestServers.config(TransportKind.AUTO)
                .idleTimeout(Duration.ofMinutes(5)).build()).dispatcher(methods).agent(true).meterRegistry(registry);
        if (authenticator != null) {
            builder.authenticator(authenticator);
        }
        return builder.build().startAndAwait();
    }
}
