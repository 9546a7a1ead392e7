package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

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
