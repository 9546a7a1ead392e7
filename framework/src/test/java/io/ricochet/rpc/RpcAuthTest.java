package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.InvalidValueException;
import io.ricochet.config.TransportKind;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.StatusCode;
import io.ricochet.testing.TestServers;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A server that requires a bearer token: who may call, register and unregister, and for how long a stranger stays. */
@Timeout(60)
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

    /** A stranger that only pinged kept its connection, and the slot under the connection cap, for as long as it liked. */
    @Test
    void aConnectionThatDoesNotAuthenticateInTimeIsClosedThoughItPings() throws Exception {
        Duration deadline = Duration.ofMillis(500);
        RpcConfig quick = RpcConfig.builder().authTimeout(deadline).build();
        try (RpcServer server = server(RpcAuthenticator.bearerToken(TOKEN), quick);
             RpcClients known = RpcClients.create(RpcClientConfig.builder().bearerToken(TOKEN).build(), null)) {
            RpcClient friend = await(known.connect(server.address()));
            long start = System.nanoTime();
            try (RawRpcPeer stranger = new RawRpcPeer(server.address(), 0)) {
                stranger.send(Envelope.newBuilder().setKind(Kind.REQUEST).setMethod(RpcConnection.PING).build());
                assertEquals(StatusCode.OK, stranger.receive().getStatus(), "pings are answered before authenticating");
                // The server's idle timeout is five minutes: only the deadline ends this connection so soon.
                assertThrows(EOFException.class, stranger::receive);
            }
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMillis >= deadline.toMillis() - 50 && tookMillis < 5_000, "closed after " + tookMillis + " ms");
            await().atMost(10, TimeUnit.SECONDS).until(() -> server.activeConnections() == 1);
            assertEquals(1, registry.get(RpcMetrics.SERVER_REQUESTS).tag("method", RpcConnection.AUTH)
                    .tag("status", "DEADLINE_EXCEEDED").timer().count());
            // A connection that authenticated in time outlives the deadline.
            assertEquals("cba", await(friend.call("echo.reverse", bytes("abc"))).toStringUtf8());
        }
    }

    /**
     * Strangers who connect and wait cannot keep out a client that authenticates as it connects: past a bound, the
     * longest waiting make room, of the newcomer's own address first. Refusing newcomers instead, a crowd of 40
     * kept a distributed run's workers out.
     */
    @Test
    void strangersWhoWaitAreDisplacedLongestWaitingFirstAndOfTheirOwnAddress() throws Exception {
        RpcConfig small = RpcConfig.builder().maxUnauthenticated(6).maxUnauthenticatedPerAddress(4).build();
        List<InetSocketAddress> dropped = new CopyOnWriteArrayList<>();
        RpcAuthenticator token = RpcAuthenticator.bearerToken(TOKEN);
        RpcAuthenticator counting = new RpcAuthenticator() {
            @Override
            public boolean accepts(com.google.protobuf.ByteString credential) {
                return token.accepts(credential);
            }

            @Override
            public void dropped(java.net.SocketAddress peer, String why) {
                dropped.add((InetSocketAddress) peer);
            }
        };
        List<Socket> sockets = new ArrayList<>();
        try (RpcServer server = server(counting, small);
             RpcClients known = RpcClients.create(RpcClientConfig.builder().bearerToken(TOKEN).build(), null)) {
            InetSocketAddress target = server.address();
            for (int i = 0; i < 2; i++) {
                sockets.add(connectFrom("127.0.0.2", target));
            }
            await().atMost(10, TimeUnit.SECONDS).until(() -> server.activeConnections() == 2);
            for (int i = 0; i < 10; i++) {
                sockets.add(connectFrom("127.0.0.1", target));
            }
            // 127.0.0.1 may keep 4 waiting: each of its 6 more displaced one of its own, never one of 127.0.0.2's.
            await().atMost(10, TimeUnit.SECONDS).until(() -> dropped.size() == 6 && server.activeConnections() == 6);
            assertTrue(dropped.stream().allMatch(a -> a.getHostString().equals("127.0.0.1")), dropped.toString());
            // A third address finds all 6 places taken: the longest waiting of all, 127.0.0.2's first, makes room.
            sockets.add(connectFrom("127.0.0.3", target));
            await().atMost(10, TimeUnit.SECONDS).until(() -> dropped.size() == 7);
            assertEquals("127.0.0.2", dropped.get(6).getHostString());
            // A client that authenticates as it connects gets in, and is served.
            RpcClient friend = await(known.connect(target));
            assertEquals("cba", await(friend.call("echo.reverse", bytes("abc"))).toStringUtf8());
            await().atMost(10, TimeUnit.SECONDS).until(() -> registry.find(RpcMetrics.SERVER_REQUESTS)
                    .tag("method", RpcConnection.AUTH).tag("status", "RESOURCE_EXHAUSTED").timer() != null
                    && registry.get(RpcMetrics.SERVER_REQUESTS).tag("method", RpcConnection.AUTH)
                            .tag("status", "RESOURCE_EXHAUSTED").timer().count() == dropped.size());
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    private static Socket connectFrom(String host, InetSocketAddress target) throws java.io.IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(host, 0));
        socket.connect(target, 5_000);
        return socket;
    }

    @Test
    void unauthenticatedBoundsAreChecked() {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> RpcConfig.builder()
                .maxUnauthenticated(4).maxUnauthenticatedPerAddress(5).build());
        assertTrue(e.getMessage().startsWith("maxUnauthenticatedPerAddress: 5"), e.getMessage());
        assertEquals(100, RpcConfig.builder().maxUnauthenticated(100).build().maxUnauthenticatedPerAddress(),
                "one address may hold them all unless bounded: a load generator on one host opens them at once");
    }

    @Test
    void theAuthenticationDeadlineIsBounded() {
        InvalidValueException zero = assertThrows(InvalidValueException.class,
                () -> RpcConfig.builder().authTimeout(Duration.ZERO).build());
        assertEquals("authTimeout: 0s (expected: > 0)", zero.getMessage());
        InvalidValueException tooLong = assertThrows(InvalidValueException.class,
                () -> RpcConfig.builder().authTimeout(Duration.ofHours(25)).build());
        assertEquals("authTimeout: 25h (expected: <= 24h)", tooLong.getMessage());
        assertEquals(Duration.ofSeconds(10), RpcConfig.DEFAULTS.authTimeout());
    }

    /** Each refused peer wrote a WARN line: anyone who could connect could write the server's log as fast as it liked. */
    @Test
    void refusedPeersAreLoggedAtMostOneLinePerInterval() throws Exception {
        int strangers = 12;
        int guessers = 4;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        // slf4j-simple writes to whatever System.err is when it logs.
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (RpcServer server = server(RpcAuthenticator.bearerToken(TOKEN));
             RpcClients wrong = RpcClients.create(RpcClientConfig.builder().bearerToken("guess").build(), null)) {
            for (int i = 0; i < strangers; i++) {
                try (RawRpcPeer stranger = new RawRpcPeer(server.address(), 0)) {
                    stranger.send(Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod("echo.reverse").build());
                    assertEquals(StatusCode.UNAUTHENTICATED, stranger.receive().getStatus());
                }
            }
            for (int i = 0; i < guessers; i++) {
                RpcException e = assertThrows(RpcException.class, () -> await(wrong.connect(server.address())));
                assertEquals(RpcStatus.UNAUTHENTICATED, e.status());
            }
        } finally {
            System.setErr(err);
        }
        List<String> refusals = captured.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("refused /"))
                .toList();
        assertEquals(1, refusals.size(), "refusal lines: " + refusals);
        assertTrue(refusals.get(0).contains("WARN"), refusals.get(0));
    }

    private RpcServer server(RpcAuthenticator authenticator) {
        return server(authenticator, RpcConfig.DEFAULTS);
    }

    private RpcServer server(RpcAuthenticator authenticator, RpcConfig rpc) {
        RpcDispatcher methods = new RpcDispatcher();
        methods.register("echo.reverse", REVERSE);
        RpcServer.Builder builder = RpcServer.builder().config(TestServers.config(TransportKind.AUTO)
                .idleTimeout(Duration.ofMinutes(5)).build()).rpc(rpc).dispatcher(methods).agent(true)
                .meterRegistry(registry);
        if (authenticator != null) {
            builder.authenticator(authenticator);
        }
        return builder.build().startAndAwait();
    }
}
