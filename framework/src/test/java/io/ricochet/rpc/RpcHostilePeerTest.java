package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.Timer;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.StatusCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Regression tests for what hostile RPC peers found: unbounded relay memory, unbounded tags, overflowing deadlines. */
@Timeout(60)
class RpcHostilePeerTest {
    private static final RpcHandler REVERSE = RpcHandler.sync(TestMethods::reverse);

    private static Envelope request(long id, String method, ByteString payload, long timeoutMicros) {
        return Envelope.newBuilder().setId(id).setKind(Kind.REQUEST).setMethod(method).setPayload(payload)
                .setTimeoutMicros(timeoutMicros).build();
    }

    private static Set<String> serverMethodTags(RpcFixture f) {
        return f.serverRegistry.find(RpcMetrics.SERVER_REQUESTS).timers().stream()
                .map(t -> t.getId().getTag("method")).collect(Collectors.toSet());
    }

    /** One 1 MB method name once made every scrape 24 MB; ten 4 MB names broke /metrics for good. */
    @Test
    void methodNamesAreBoundedAndUnknownOnesNeverBecomeTags() throws Exception {
        try (RpcFixture f = new RpcFixture(); RawRpcPeer raw = new RawRpcPeer(f.server.address(), 0)) {
            TestMethods.registerOn(f.methods);
            RpcClient client = f.client();
            List<String> badNames = List.of("m".repeat(1 << 20), "m".repeat(RpcConfig.MAX_METHOD_LENGTH + 1), "");
            for (String bad : badNames) {
                // Refused by the client before it is sent, and by the server from a peer that sends it anyway.
                assertEquals(RpcStatus.INVALID_ARGUMENT, failure(client.call(bad, bytes("x"))));
                raw.send(request(1, bad, bytes("x"), 0));
                assertEquals(StatusCode.INVALID_ARGUMENT, raw.receive().getStatus());
            }
            for (int i = 0; i < 200; i++) {
                assertEquals(RpcStatus.NOT_FOUND, failure(client.call("missing/" + i, bytes("x"))));
            }
            await(client.call(TestMethods.REVERSE, bytes("ab")));
            assertEquals(Set.of(TestMethods.REVERSE, RpcMetrics.UNKNOWN_METHOD), serverMethodTags(f));
            long refused = f.serverRegistry.find(RpcMetrics.SERVER_REQUESTS).tag("method", RpcMetrics.UNKNOWN_METHOD)
                    .timers().stream().mapToLong(Timer::count).sum();
            assertEquals(203, refused);
            // The connection survives a bad name.
            assertEquals("ba", await(client.call(TestMethods.REVERSE, bytes("ab"))).toStringUtf8());
        }
    }

    @Test
    void agentRoutesShareOneTagOnBothSidesOfTheHop() {
        try (RpcFixture f = new RpcFixture()) {
            RpcClient owner = f.client();
            RpcClient caller = f.client();
            for (int i = 0; i < 20; i++) {
                await(owner.serve("route/" + i, REVERSE));
                await(caller.call("route/" + i, bytes("ab")));
            }
            assertEquals(Set.of(RpcAgent.REGISTER, RpcMetrics.AGENT_ROUTE), serverMethodTags(f));
            assertEquals(Set.of(RpcMetrics.AGENT_ROUTE), f.serverRegistry.find(RpcMetrics.CLIENT_REQUESTS).timers()
                    .stream().map(t -> t.getId().getTag("method")).collect(Collectors.toSet()));
        }
    }

    /** A route owner that never read grew the agent from 99 MB to 3 GB in 12 s of 1 MiB calls. */
    @Test
    void callsToARouteOwnerThatNeverReadsFailFastInsteadOfQueueing() throws Exception {
        try (RpcFixture f = new RpcFixture();
                RawRpcPeer owner = new RawRpcPeer(f.server.address(), 4096)) {
            owner.send(request(1, RpcAgent.REGISTER, RpcAgent.route("sink"), 1_000_000));
            assertEquals(StatusCode.OK, owner.receive().getStatus());
            RpcClient caller = f.client();
            ByteString mib = ByteString.copyFrom(new byte[1 << 20]);
            for (int i = 0; i < 200; i++) {
                caller.call("sink", mib, Duration.ofMillis(1));
            }
            // Until the agent has taken all 200 calls: at most one call past the high watermark waits for the owner.
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
                long queued = f.server.pendingOutboundBytes();
                assertTrue(queued <= 2L << 20, queued + " bytes queued for the owner");
                assertTrue(f.server.agent().relayQueuedBytes() <= 2L << 20, "relay " + f.server.agent().relayQueuedBytes());
                return routedCalls(f, null) == 200;
            });
            assertTrue(routedCalls(f, "RESOURCE_EXHAUSTED") > 150, "refused at once while the owner does not read: "
                    + routedCalls(f, "RESOURCE_EXHAUSTED") + " of 200");
        }
    }

    private static long routedCalls(RpcFixture f, String status) {
        var search = f.serverRegistry.find(RpcMetrics.SERVER_REQUESTS).tag("method", RpcMetrics.AGENT_ROUTE);
        if (status != null) {
            search = search.tag("status", status);
        }
        return search.timers().stream().mapToLong(Timer::count).sum();
    }

    /** Answers relayed back to a caller that never read queued without bound: 64 calls, 64 MB queued. */
    @Test
    void lateAnswersToACallerThatNeverReadsAreRefusedInsteadOfQueued() throws Exception {
        try (RpcFixture f = new RpcFixture();
                RawRpcPeer caller = new RawRpcPeer(f.server.address(), 4096)) {
            RpcClient owner = f.client();
            ByteString mib = ByteString.copyFrom(new byte[1 << 20]);
            // Every answer waits until the owner has all 64 calls. Answered at once, the first answers could make the
            // caller unwritable while the server had read only some of its requests; backpressure then stopped
            // reading the caller, which never reads, so the rest were never routed (a CI flake).
            AtomicInteger calls = new AtomicInteger();
            CompletableFuture<ByteString> allArrived = new CompletableFuture<>();
            await(owner.serve("fat", request -> {
                if (calls.incrementAndGet() == 64) {
                    allArrived.complete(mib);
                }
                return allArrived;
            }));
            List<Envelope> requests = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                requests.add(request(i + 1, "fat", bytes("x"), 30_000_000));
            }
            caller.sendAll(requests);
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
                long queued = f.server.pendingOutboundBytes();
                assertTrue(queued <= 3L << 20, queued + " bytes of answers queued for a caller that does not read");
                return routedCalls(f, null) == 64;
            });
            assertTrue(routedCalls(f, "RESOURCE_EXHAUSTED") >= 60, "answered with a status instead: "
                    + routedCalls(f, "RESOURCE_EXHAUSTED") + " of 64");
        }
    }

    /** A few owners that never read once held the whole relay budget for as long as they stayed connected. */
    @Test
    void anOwnerThatLeavesAForwardedCallUnwrittenIsDisconnectedAndTheBudgetComesBack() throws Exception {
        RpcConfig quick = RpcConfig.builder().relayWriteTimeout(Duration.ofMillis(300)).build();
        try (RpcFixture f = new RpcFixture(quick, RpcClientConfig.builder().build());
                RawRpcPeer sink = new RawRpcPeer(f.server.address(), 4096)) {
            sink.send(request(1, RpcAgent.REGISTER, RpcAgent.route("sink"), 1_000_000));
            assertEquals(StatusCode.OK, sink.receive().getStatus());
            RpcClient caller = f.client();
            ByteString big = ByteString.copyFrom(new byte[4 * 1024 * 1024 - 4096]);
            for (int i = 0; i < 4; i++) {
                caller.call("sink", big, Duration.ofMillis(100)).handle((v, e) -> null).get(10, TimeUnit.SECONDS);
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> f.server.agent().routes() == 0
                    && f.server.agent().relayQueuedBytes() == 0);
            assertEquals(1.0, io.ricochet.testing.Meters.closed(f.serverRegistry, RpcServer.METER_TAG, "stalled"));
            // Honest pairs relay again.
            RpcClient owner = f.client();
            await(owner.serve("honest", REVERSE));
            assertEquals(128 * 1024, await(caller.call("honest", ByteString.copyFrom(new byte[128 * 1024]))).size());
        }
    }

    @Test
    void theRelayBudgetRefusesWhatItCannotHoldAndIsReturnedWhenWritten() {
        RpcConfig small = RpcConfig.builder().maxRelayBytes(64 * 1024).build();
        try (RpcFixture f = new RpcFixture(small, RpcClientConfig.builder().build())) {
            RpcClient owner = f.client();
            RpcClient caller = f.client();
            await(owner.serve("svc/big", REVERSE));
            CompletionException tooBig = assertThrows(CompletionException.class,
                    () -> caller.call("svc/big", ByteString.copyFrom(new byte[100 * 1024])).join());
            RpcException cause = (RpcException) tooBig.getCause();
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, cause.status());
            assertTrue(cause.detail().contains("forwarded calls queued"), cause.detail());
            for (int i = 0; i < 50; i++) {
                assertEquals(32 * 1024, await(caller.call("svc/big", ByteString.copyFrom(new byte[32 * 1024]))).size());
            }
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> f.server.agent().relayQueuedBytes() == 0);
        }
    }

    /** A million routes from 100 connections once cost 1.1 GB: there was no cap over all clients. */
    @Test
    void routesOfAllClientsAreCapped() {
        RpcConfig three = RpcConfig.builder().maxRoutes(3).build();
        try (RpcFixture f = new RpcFixture(three, RpcClientConfig.builder().build())) {
            RpcClient a = f.client();
            RpcClient b = f.client();
            await(a.serve("r/1", REVERSE));
            await(a.serve("r/2", REVERSE));
            await(b.serve("r/3", REVERSE));
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(b.serve("r/4", REVERSE)));
            await(b.unserve("r/3"));
            await(b.serve("r/4", REVERSE));
            a.close();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> f.server.agent().routes() == 1);
            await(b.serve("r/5", REVERSE));
            await(b.serve("r/6", REVERSE));
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(b.serve("r/7", REVERSE)));
        }
    }

    /** ALREADY_EXISTS once named the owner's address and port to any peer. */
    @Test
    void alreadyExistsDoesNotNameTheOwner() {
        try (RpcFixture f = new RpcFixture()) {
            RpcClient first = f.client();
            RpcClient second = f.client();
            await(first.serve("svc/x", REVERSE));
            CompletionException e = assertThrows(CompletionException.class,
                    () -> second.serve("svc/x", REVERSE).join());
            RpcException cause = (RpcException) e.getCause();
            assertEquals(RpcStatus.ALREADY_EXISTS, cause.status());
            assertFalse(cause.detail().contains("127.0.0.1"), cause.detail());
            assertFalse(cause.detail().contains(String.valueOf(first.connection().remoteAddress())), cause.detail());
        }
    }

    /** A forwarded call with timeout_micros of 2^62 or more overflowed and failed at once with DEADLINE_EXCEEDED. */
    @Test
    void hugeDeadlinesOnTheWireMeanTheLongestOneNotNone() throws Exception {
        try (RpcFixture f = new RpcFixture();
                RawRpcPeer caller = new RawRpcPeer(f.server.address(), 0)) {
            RpcClient owner = f.client();
            await(owner.serve("svc/echo", REVERSE));
            List<Long> timeouts = new ArrayList<>(List.of(1L << 62, Long.MAX_VALUE, -1L));
            for (int i = 0; i < timeouts.size(); i++) {
                caller.send(request(i + 1, "svc/echo", bytes("abc"), timeouts.get(i)));
                Envelope answer = caller.receive();
                assertEquals(i + 1, answer.getId());
                assertEquals(StatusCode.OK, answer.getStatus(), "timeout_micros " + Long.toUnsignedString(timeouts.get(i))
                        + ": " + answer.getMessage());
                assertEquals("cba", answer.getPayload().toStringUtf8());
            }
        }
        long day = RpcConfig.MAX_TIMEOUT.toNanos();
        assertEquals(day, RequestServer.timeoutNanos(1L << 62));
        assertEquals(day, RequestServer.timeoutNanos(-1L));
        assertEquals(day, RequestServer.timeoutNanos(day / 1000 + 1));
        assertEquals(5_000, RequestServer.timeoutNanos(5));
    }

    @Test
    void aCallMadeWithAHugeTimeoutIsSentWithTheLongest() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            CompletableFuture<Long> seen = new CompletableFuture<>();
            f.methods.register("probe", request -> {
                seen.complete(request.remainingNanos());
                return CompletableFuture.completedFuture(ByteString.EMPTY);
            });
            RpcClient client = f.client();
            await(client.connection().call("probe", ByteString.EMPTY, Long.MAX_VALUE));
            long remaining = seen.get(10, TimeUnit.SECONDS);
            assertTrue(remaining > 0 && remaining <= RpcConfig.MAX_TIMEOUT.toNanos(), "remaining " + remaining);
        }
    }
}
