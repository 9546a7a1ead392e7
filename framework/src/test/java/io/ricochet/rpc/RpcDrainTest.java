package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** A graceful stop of an RPC server: calls it owes finish, new ones are refused. */
class RpcDrainTest {
    private static final String PROBE = "probe";
    private static final String NOTE = "note";

    /**
     * Regression: the drain discarded every frame, so the owner's answer to a call the agent relayed never
     * reached it, and the caller lost a call the server owed it when the stop timed out.
     */
    @Test
    void aRelayedCallInFlightAtStopGetsTheOwnersAnswerAndNewRequestsAreRefused() throws Exception {
        RpcDispatcher methods = new RpcDispatcher();
        methods.register(PROBE, RpcHandler.sync(p -> p));
        methods.register(NOTE, RpcHandler.sync(p -> p));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // A shutdown timeout far above the test's own waits: the stop must end because the call was answered.
        RpcServer server = RpcServer.builder().config(TestServers.config(TransportKind.AUTO)
                .shutdownTimeout(Duration.ofMinutes(2)).build()).dispatcher(methods).agent(true).meterRegistry(registry)
                .build().startAndAwait();
        try (server; RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            RpcClient owner = await(clients.connect(server.address()));
            RpcClient caller = await(clients.connect(server.address()));
            CompletableFuture<ByteString> ownersAnswer = new CompletableFuture<>();
            CountDownLatch relayed = new CountDownLatch(1);
            await(owner.serve("svc/drain", request -> {
                relayed.countDown();
                return ownersAnswer;
            }));
            CompletableFuture<ByteString> call = caller.call("svc/drain", bytes("x"), Duration.ofSeconds(30));
            assertTrue(relayed.await(20, TimeUnit.SECONDS), "the owner never saw the relayed call");
            assertEquals(RpcStatus.OK, probe(caller));

            CompletableFuture<Void> stopped = server.stop();
            // Both connections are draining once each refuses a new request.
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> probe(caller) == RpcStatus.UNAVAILABLE);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> probe(owner) == RpcStatus.UNAVAILABLE);
            RpcException refused = failureOf(caller.call(PROBE, bytes("x")));
            assertEquals("server is stopping", refused.detail());
            await(caller.send(NOTE, bytes("dropped")));
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> registry.find(RpcMetrics.SERVER_REQUESTS)
                    .tag("method", NOTE).tag("status", "UNAVAILABLE").timers().stream().mapToLong(t -> t.count()).sum() == 1);
            assertFalse(stopped.isDone(), "the stop did not wait for the relayed call");

            ownersAnswer.complete(bytes("done"));
            assertEquals("done", await(call).toStringUtf8());
            await(stopped);
        }
    }

    /** OK, or the status a new call to {@link #PROBE} fails with. */
    private static RpcStatus probe(RpcClient client) throws Exception {
        try {
            client.call(PROBE, bytes("x")).get(20, TimeUnit.SECONDS);
            return RpcStatus.OK;
        } catch (ExecutionException e) {
            return ((RpcException) e.getCause()).status();
        }
    }

    private static RpcException failureOf(CompletableFuture<?> future) throws Exception {
        try {
            future.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return (RpcException) e.getCause();
        }
        throw new AssertionError("succeeded; expected a failure");
    }
}
