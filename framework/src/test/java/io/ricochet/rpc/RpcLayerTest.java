package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.TestServers;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** RPC as its own layer: typed methods, cancellation, keepalive, reconnects that stop, an opt-in agent, one-way calls, a draining stop. */
@Timeout(60)
class RpcLayerTest {
    private static final MethodDescriptor<StringValue, Int64Value> LENGTH = MethodDescriptor.of("text.length",
            StringValue.getDefaultInstance(), Int64Value.getDefaultInstance());

    @Test
    void typedMethodsTakeAndReturnMessages() {
        try (RpcFixture f = new RpcFixture()) {
            f.methods.register(LENGTH, RpcMethod.sync(text -> Int64Value.of(text.getValue().length())));
            RpcClient client = f.client();
            assertEquals(5, await(client.call(LENGTH, StringValue.of("hello"))).getValue());
            // A payload that is not the request type.
            assertEquals(RpcStatus.INVALID_ARGUMENT, failure(client.call(LENGTH.name(), bytes("\u00ff\u00ff\u00ff"))));
            // An empty message: zero encodes to no bytes (EnvelopeCodecTest checks the field is left out).
            assertEquals(0, await(client.call(LENGTH, StringValue.of(""))).getValue());
        }
    }

    /**
     * Typed answers given later, on an executor, or as a stage {@code isDone} refuses; and the ones that fail: null, and a
     * message that cannot be written (the caller hears INTERNAL and the connection goes on serving).
     */
    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void typedAnswersOfEveryKindArriveAndTheBadOnesFailInternal() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (RpcFixture f = new RpcFixture()) {
            CompletableFuture<Int64Value> later = new CompletableFuture<>();
            CountDownLatch heard = new CountDownLatch(1);
            f.methods.register(typed("later"), (text, context) -> {
                heard.countDown();
                return later;
            });
            f.methods.register(typed("elsewhere"), RpcMethod.sync(text -> Int64Value.of(7)), executor);
            f.methods.register(typed("minimal"), (text, context) -> CompletableFuture.completedStage(Int64Value.of(8)));
            f.methods.register("minimal.raw", request -> CompletableFuture.completedStage(bytes("raw")));
            f.methods.register(typed("null.now"), RpcMethod.sync(text -> null));
            f.methods.register(typed("null.later"), (text, context) -> CompletableFuture.supplyAsync(() -> null, executor));
            f.methods.register(typed("unwritable"), (RpcMethod) (text, context) ->
                    CompletableFuture.completedFuture(TestMessages.failingToSerialize()));
            RpcClient client = f.client();
            ByteString x = StringValue.of("x").toByteString();

            CompletableFuture<ByteString> pending = client.call("later", x);
            assertTrue(heard.await(20, TimeUnit.SECONDS), "the handler never ran");
            later.complete(Int64Value.of(42));
            assertEquals(Int64Value.of(42).toByteString(), await(pending));
            assertEquals(Int64Value.of(7).toByteString(), await(client.call("elsewhere", x)));
            assertEquals(Int64Value.of(8).toByteString(), await(client.call("minimal", x)));
            assertEquals(bytes("raw"), await(client.call("minimal.raw", x)));
            for (String method : List.of("null.now", "null.later")) {
                RpcException e = failedWith(client.call(method, x));
                assertEquals(RpcStatus.INTERNAL, e.status(), method);
                assertTrue(e.detail().contains("answered null"), method + ": " + e.detail());
            }
            RpcException unwritable = failedWith(client.call("unwritable", x));
            assertEquals(RpcStatus.INTERNAL, unwritable.status());
            assertTrue(unwritable.detail().contains("cannot be written"), unwritable.detail());
            assertEquals(Int64Value.of(7).toByteString(), await(client.call("elsewhere", x)));
            // Code that calls a typed registration's handler itself still gets bytes.
            assertEquals(Int64Value.of(42).toByteString(), await(f.methods.lookup("later").handler()
                    .handle(new RpcRequest("later", x, 0, null)).toCompletableFuture()));
        } finally {
            executor.shutdownNow();
        }
    }

    private static MethodDescriptor<StringValue, Int64Value> typed(String name) {
        return MethodDescriptor.of(name, StringValue.getDefaultInstance(), Int64Value.getDefaultInstance());
    }

    /** Typed calls, and the client's other derived futures, fail with the RpcException itself, as raw calls do. */
    @Test
    void derivedFuturesFailWithTheRpcExceptionNotAWrapper() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            // Answers bytes that are not an Int64Value: the typed caller cannot parse them.
            f.methods.register(LENGTH.name(), RpcHandler.sync(p -> bytes("\u00ff\u00ff\u00ff")));
            RpcClient client = f.client();
            assertEquals(RpcStatus.INTERNAL, failedWith(client.call(LENGTH, StringValue.of("x"))).status());
            MethodDescriptor<StringValue, Int64Value> missing = MethodDescriptor.of("no.such",
                    StringValue.getDefaultInstance(), Int64Value.getDefaultInstance());
            assertEquals(RpcStatus.NOT_FOUND, failedWith(client.call(missing, StringValue.of("x"))).status());
            assertEquals(RpcStatus.NOT_FOUND, failedWith(client.connection().call(missing, StringValue.of("x"))).status());
            assertEquals(RpcStatus.NOT_FOUND, failedWith(client.unserve("svc/never")).status());
            f.methods.register("svc/taken", RpcHandler.sync(p -> p));
            assertEquals(RpcStatus.ALREADY_EXISTS, failedWith(client.serve("svc/taken", RpcHandler.sync(p -> p))).status());
            // A port held by a socket that does not listen: connecting is refused.
            try (Socket holder = new Socket()) {
                holder.bind(new InetSocketAddress("127.0.0.1", 0));
                assertEquals(RpcStatus.UNAVAILABLE, failedWith(f.clients.connect(
                        (InetSocketAddress) holder.getLocalSocketAddress())).status());
            }
        }
    }

    /** What {@code handle} sees of a failed future: fails the test unless it is an {@link RpcException}. */
    private static RpcException failedWith(CompletableFuture<?> future) throws Exception {
        Throwable seen = future.handle((v, e) -> e).get(20, TimeUnit.SECONDS);
        if (seen instanceof RpcException r) {
            return r;
        }
        throw new AssertionError("failed with " + seen + " (expected: an RpcException)", seen);
    }

    @Test
    void aCallersCancelReachesTheHandler() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Boolean> cancelSeen = new CompletableFuture<>();
            f.methods.register("slow", request -> {
                request.onCancel(() -> cancelSeen.complete(request.isCancelled()));
                started.countDown();
                return new CompletableFuture<>();
            });
            RpcClient client = f.client();
            CompletableFuture<ByteString> call = client.call("slow", bytes("x"), Duration.ofSeconds(30));
            assertTrue(started.await(10, TimeUnit.SECONDS));
            call.cancel(false);
            assertTrue(cancelSeen.get(10, TimeUnit.SECONDS));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> f.clientRegistry.find(RpcMetrics.CLIENT_REQUESTS)
                    .tag("status", "CANCELLED").timers().stream().mapToLong(t -> t.count()).sum() == 1);
        }
    }

    @Test
    void aDeadlineReachesTheHandlerAsACancel() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            CompletableFuture<Long> cancelledAfter = new CompletableFuture<>();
            f.methods.register("slow", request -> {
                long start = System.nanoTime();
                request.onCancel(() -> cancelledAfter.complete(System.nanoTime() - start));
                return new CompletableFuture<>();
            });
            RpcClient client = f.client();
            assertEquals(RpcStatus.DEADLINE_EXCEEDED, failure(client.call("slow", bytes("x"), Duration.ofMillis(200))));
            assertTrue(cancelledAfter.get(10, TimeUnit.SECONDS) > 0);
        }
    }

    @Test
    void keepalivePingsHoldAnIdleConnectionOpenPastTheServersIdleTimeout() throws Exception {
        RpcClientConfig pinging = RpcClientConfig.builder().keepalive(Duration.ofMillis(100)).build();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RpcDispatcher methods = new RpcDispatcher();
        try (RpcServer server = RpcServer.builder().config(TestServers.config(TransportKind.AUTO)
                .idleTimeout(Duration.ofMillis(400)).build()).dispatcher(methods).meterRegistry(registry).build()
                .startAndAwait();
                RpcClients clients = RpcClients.create(pinging, null);
                RpcClients silent = RpcClients.create(RpcClientConfig.builder().keepalive(Duration.ZERO).build(), null)) {
            RpcClient kept = await(clients.connect(server.address()));
            RpcClient dropped = await(silent.connect(server.address()));
            // Four idle timeouts: the silent one is closed by the server, the pinging one is not.
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !dropped.isConnected());
            CountDownLatch fourTimeouts = new CountDownLatch(1);
            kept.connection().eventLoop().schedule(fourTimeouts::countDown, 1600, TimeUnit.MILLISECONDS);
            assertTrue(fourTimeouts.await(10, TimeUnit.SECONDS));
            assertTrue(kept.isConnected());
        }
    }

    @Test
    void closingAClientStopsItsReconnects() throws Exception {
        RpcClientConfig reconnecting = RpcClientConfig.builder().reconnect(Duration.ofMillis(20), Duration.ofMillis(50))
                .keepalive(Duration.ZERO).build();
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        RpcDispatcher methods = new RpcDispatcher();
        methods.register("hi", RpcHandler.sync(p -> bytes("hi")));
        ServerConfig config = ServerConfig.builder().host("127.0.0.1").tcpPort(port).ioThreads(1).build();
        RpcServer first = RpcServer.builder().config(config).dispatcher(methods).build().startAndAwait();
        try (RpcClients clients = RpcClients.create(reconnecting, null)) {
            RpcClient client = await(clients.connect(new InetSocketAddress("127.0.0.1", port)));
            first.close();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !client.isConnected());
            client.close();
            // A server back on the port gets no connection from the closed client.
            try (RpcServer second = RpcServer.builder().config(config).dispatcher(methods).build().startAndAwait()) {
                CountDownLatch waited = new CountDownLatch(1);
                clients.eventLoops().group().schedule(waited::countDown, 300, TimeUnit.MILLISECONDS);
                assertTrue(waited.await(10, TimeUnit.SECONDS));
                assertEquals(0, second.activeConnections());
                assertFalse(client.isConnected());
            }
        }
    }

    @Test
    void theAgentIsOptedInto() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RpcServer plain = RpcServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .dispatcher(new RpcDispatcher()).meterRegistry(registry).build().startAndAwait();
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            RpcClient client = await(clients.connect(plain.address()));
            assertEquals(null, plain.agent());
            assertEquals(RpcStatus.NOT_FOUND, failure(client.serve("svc/a", RpcHandler.sync(p -> p))));
        }
    }

    @Test
    void oneWayCallsReachTheHandlerAndGetNoAnswer() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            AtomicReference<String> got = new AtomicReference<>();
            CountDownLatch arrived = new CountDownLatch(1);
            f.methods.register("note", request -> {
                got.set(request.payload().toStringUtf8());
                arrived.countDown();
                return CompletableFuture.completedFuture(bytes("ignored"));
            });
            RpcClient client = f.client();
            client.send("note", bytes("fire and forget"));
            assertTrue(arrived.await(10, TimeUnit.SECONDS));
            assertEquals("fire and forget", got.get());
            // Nothing came back to be counted as late.
            assertEquals("ok", await(client.call("note", bytes("ok"))).size() > 0 ? "ok" : "none");
            assertEquals(0, client.connection().eventLoop().submit(client.connection()::lateResponses).get());
        }
    }

    @Test
    void aStopLetsACallInFlightFinish() throws Exception {
        RpcDispatcher methods = new RpcDispatcher();
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<ByteString> answer = new CompletableFuture<>();
        methods.register("work", request -> {
            started.countDown();
            return answer;
        });
        RpcServer server = RpcServer.builder().config(TestServers.config(TransportKind.AUTO).build()).dispatcher(methods)
                .build().startAndAwait();
        try (RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            RpcClient client = await(clients.connect(server.address()));
            CompletableFuture<ByteString> call = client.call("work", bytes("x"), Duration.ofSeconds(30));
            assertTrue(started.await(10, TimeUnit.SECONDS));
            CompletableFuture<Void> stopped = server.stop();
            // The stop waits for the answer still being computed.
            answer.complete(bytes("done"));
            assertEquals("done", await(call).toStringUtf8());
            stopped.get(10, TimeUnit.SECONDS);
        } finally {
            server.close();
        }
    }
}
