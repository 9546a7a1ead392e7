package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.ricochet.config.TransportKind;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.StatusCode;
import io.ricochet.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RpcAgentTest {
    private static final RpcHandler REVERSE = RpcHandler.sync(TestMethods::reverse);

    @Test
    void registeredUriIsServedByItsOwnerUntilUnregistered() {
        try (RpcFixture f = new RpcFixture()) {
            RpcClient owner = f.client();
            RpcClient caller = f.client();
            assertEquals(RpcStatus.NOT_FOUND, failure(caller.call("svc/a", bytes("abc"))));
            await(owner.serve("svc/a", REVERSE));
            assertEquals("cba", await(caller.call("svc/a", bytes("abc"))).toStringUtf8());
            assertEquals(1, f.server.agent().routes());
            await(owner.unserve("svc/a"));
            assertEquals(RpcStatus.NOT_FOUND, failure(caller.call("svc/a", bytes("abc"))));
            assertEquals(0, f.server.agent().routes());
        }
    }

    @Test
    void ownerDisconnectDropsItsRoutes() {
        try (RpcFixture f = new RpcFixture()) {
            RpcClient owner = f.client();
            RpcClient caller = f.client();
            await(owner.serve("svc/b", REVERSE));
            await(owner.serve("svc/c", REVERSE));
            owner.close();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> f.server.agent().routes() == 0);
            assertEquals(RpcStatus.NOT_FOUND, failure(caller.call("svc/b", bytes("x"))));
            assertEquals(RpcStatus.NOT_FOUND, failure(caller.call("svc/c", bytes("x"))));
        }
    }

    @Test
    void aUriOwnedByAnotherLiveClientIsAlreadyExists() {
        try (RpcFixture f = new RpcFixture()) {
            TestMethods.registerOn(f.methods);
            RpcClient first = f.client();
            RpcClient second = f.client();
            await(first.serve("svc/d", REVERSE));
            assertEquals(RpcStatus.ALREADY_EXISTS, failure(second.serve("svc/d", REVERSE)));
            assertEquals(RpcStatus.ALREADY_EXISTS, failure(second.serve(TestMethods.UPDATE, REVERSE)));
            assertEquals(RpcStatus.NOT_FOUND, failure(second.unserve("svc/d")));
            // The loser's failed attempt changed nothing: the first owner still answers.
            assertEquals("zyx", await(second.call("svc/d", bytes("xyz"))).toStringUtf8());
        }
    }

    @Test
    void theCallersDeadlineCarriesAcrossTheHop() {
        try (RpcFixture f = new RpcFixture()) {
            RpcClient owner = f.client();
            RpcClient caller = f.client();
            AtomicLong remainingAtOwner = new AtomicLong();
            await(owner.serve("svc/slow", request -> {
                remainingAtOwner.set(request.remainingNanos());
                return new CompletableFuture<>();
            }));
            CompletableFuture<ByteString> call = caller.call("svc/slow", bytes("x"), Duration.ofMillis(300));
            assertEquals(RpcStatus.DEADLINE_EXCEEDED, failure(call));
            long remaining = remainingAtOwner.get();
            assertTrue(remaining > 0 && remaining <= Duration.ofMillis(300).toNanos(),
                    "owner saw " + remaining + " ns left of the caller's 300 ms");
            // The agent's own hop timed out too, so nothing is left waiting there.
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> f.serverRegistry
                    .get(RpcMetrics.CLIENT_REQUESTS).tag("status", "DEADLINE_EXCEEDED").timer().count() == 1);
        }
    }

    /**
     * A call with timeout_micros 0 ("none") reached its owner with the agent's default deadline instead (10 s), and
     * failed then, though it worked when made to a server method directly.
     */
    @Test
    void aCallWithNoDeadlineIsForwardedWithNone() throws Exception {
        Duration agentDefault = Duration.ofMillis(300);
        RpcConfig shortDefault = RpcConfig.builder().defaultTimeout(agentDefault).build();
        try (RpcFixture f = new RpcFixture(shortDefault, RpcClientConfig.builder().build());
                RawRpcPeer caller = new RawRpcPeer(f.server.address(), 0)) {
            RpcClient owner = f.client();
            CompletableFuture<Long> deadlineSeen = new CompletableFuture<>();
            CompletableFuture<ByteString> answer = new CompletableFuture<>();
            await(owner.serve("svc/long", request -> {
                deadlineSeen.complete(request.deadlineNanos());
                // Answered only after the agent's default deadline has passed twice over.
                owner.connection().eventLoop().schedule(() -> answer.complete(bytes("done")),
                        2 * agentDefault.toMillis(), TimeUnit.MILLISECONDS);
                return answer;
            }));
            caller.send(Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod("svc/long")
                    .setPayload(bytes("x")).build());
            Envelope reply = caller.receive();
            assertEquals(StatusCode.OK, reply.getStatus(), reply.getMessage());
            assertEquals("done", reply.getPayload().toStringUtf8());
            assertEquals(0L, deadlineSeen.get(10, TimeUnit.SECONDS), "the owner's handler saw a deadline");
        }
    }

    /**
     * What bounds a forwarded call with no deadline when its owner's host vanishes without a FIN or a reset: the
     * server's idle timeout, which no longer waits for the agent's own calls. It once waited for them for good.
     */
    @Test
    void aCallWithNoDeadlineToAnOwnerThatFallsSilentFailsAtTheIdleTimeout() throws Exception {
        Duration idle = Duration.ofSeconds(1);
        RpcDispatcher methods = new RpcDispatcher();
        try (RpcServer server = RpcServer.builder().config(TestServers.config(TransportKind.AUTO).idleTimeout(idle).build())
                .dispatcher(methods).agent(true).build().startAndAwait();
                RawRpcPeer owner = new RawRpcPeer(server.address(), 0);
                RawRpcPeer caller = new RawRpcPeer(server.address(), 0)) {
            owner.send(Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod(RpcAgent.REGISTER)
                    .setPayload(RpcAgent.route("svc/silent")).build());
            assertEquals(StatusCode.OK, owner.receive().getStatus());
            long start = System.nanoTime();
            caller.send(Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod("svc/silent").build());
            Envelope forwarded = owner.receive();
            assertEquals(0, forwarded.getTimeoutMicros(), "forwarded with a deadline");
            // The owner never answers, never pings, never closes: as a host that lost power.
            Envelope reply = caller.receive();
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(StatusCode.UNAVAILABLE, reply.getStatus(), reply.getMessage());
            assertTrue(tookMillis < 5 * idle.toMillis(), "failed after " + tookMillis + " ms");
            assertEquals(0, server.agent().routes());
        }
    }

    @Test
    void theRouteLimitPerClientIsResourceExhausted() {
        RpcConfig two = RpcConfig.builder().maxRoutesPerClient(2).build();
        try (RpcFixture f = new RpcFixture(two, RpcClientConfig.builder().build())) {
            RpcClient owner = f.client();
            await(owner.serve("r/1", REVERSE));
            await(owner.serve("r/2", REVERSE));
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(owner.serve("r/3", REVERSE)));
        }
    }

    @Test
    void aReconnectingClientGetsItsRoutesBack() {
        RpcClientConfig reconnecting = RpcClientConfig.builder()
                .reconnect(Duration.ofMillis(20), Duration.ofMillis(200)).build();
        try (RpcFixture f = new RpcFixture(RpcConfig.DEFAULTS, reconnecting)) {
            RpcClient owner = f.client();
            RpcClient caller = f.client();
            await(owner.serve("svc/e", REVERSE));
            RpcConnection first = owner.connection();
            first.close();
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> owner.connection() != first && owner.isConnected() && f.server.agent().routes() == 1);
            assertEquals("fe", await(caller.call("svc/e", bytes("ef"))).toStringUtf8());
        }
    }
}
