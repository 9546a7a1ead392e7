package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.protobuf.ByteString;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class RpcCallTest {

    @Test
    void tenThousandInterleavedCallsEachGetTheirOwnAnswer() {
        RpcConfig roomy = RpcConfig.builder().maxInFlight(20_000).build();
        try (RpcFixture f = new RpcFixture(roomy, RpcClientConfig.builder().rpc(roomy).build())) {
            // Every third answer is immediate, the others come later in a scrambled order.
            f.methods.register("later", request -> {
                int n = Integer.parseInt(request.payload().toStringUtf8());
                if (n % 3 == 0) {
                    return CompletableFuture.completedFuture(TestMethods.reverse(request.payload()));
                }
                CompletableFuture<ByteString> answer = new CompletableFuture<>();
                request.caller().eventLoop().schedule(() -> answer.complete(TestMethods.reverse(request.payload())),
                        n % 7, TimeUnit.MILLISECONDS);
                return answer;
            });
            RpcClient client = f.client();
            List<CompletableFuture<ByteString>> calls = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                calls.add(client.call("later", bytes(Integer.toString(i))));
            }
            for (int i = 0; i < calls.size(); i++) {
                String expected = new StringBuilder(Integer.toString(i)).reverse().toString();
                assertEquals(expected, await(calls.get(i)).toStringUtf8(), "answer " + i);
            }
        }
    }

    @Test
    void deadlineEndsTheCallOnceAndALateAnswerIsDropped() {
        try (RpcFixture f = new RpcFixture()) {
            AtomicReference<CompletableFuture<ByteString>> held = new AtomicReference<>();
            f.methods.register("slow", request -> {
                CompletableFuture<ByteString> never = new CompletableFuture<>();
                held.set(never);
                return never;
            });
            RpcClient client = f.client();
            CompletableFuture<ByteString> call = client.call("slow", bytes("x"), Duration.ofMillis(100));
            assertEquals(RpcStatus.DEADLINE_EXCEEDED, failure(call));
            held.get().complete(bytes("too late"));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> lateResponses(client) == 1);
            assertEquals(RpcStatus.DEADLINE_EXCEEDED, failure(call));
            assertEquals(1L, f.clientRegistry.get(RpcMetrics.CLIENT_REQUESTS).tag("status", "DEADLINE_EXCEEDED").timer().count());
            assertEquals(0L, f.clientRegistry.get(RpcMetrics.CLIENT_REQUESTS).tag("status", "OK").timer().count());
        }
    }

    /** Deadlines share one timer per connection: a shorter one made later moves it earlier, and it re-arms after. */
    @Test
    void eachCallEndsAtItsOwnDeadlineWhateverTheOrderTheyWereMadeIn() {
        try (RpcFixture f = new RpcFixture()) {
            f.methods.register("never", request -> new CompletableFuture<>());
            RpcClient client = f.client();
            CompletableFuture<ByteString> longest = client.call("never", bytes("x"), Duration.ofMinutes(10));
            CompletableFuture<ByteString> later = client.call("never", bytes("x"), Duration.ofMillis(400));
            CompletableFuture<ByteString> sooner = client.call("never", bytes("x"), Duration.ofMillis(100));
            assertEquals(RpcStatus.DEADLINE_EXCEEDED, failure(sooner));
            assertEquals(RpcStatus.DEADLINE_EXCEEDED, failure(later));
            assertFalse(longest.isDone(), "a call ten minutes from its deadline is still waiting");
            f.methods.register("echo", RpcHandler.sync(p -> p));
            assertEquals("still open", await(client.call("echo", bytes("still open"))).toStringUtf8());
            assertEquals(2L, f.clientRegistry.get(RpcMetrics.CLIENT_REQUESTS).tag("status", "DEADLINE_EXCEEDED")
                    .timer().count());
        }
    }

    private static long lateResponses(RpcClient client) {
        return await(CompletableFuture.supplyAsync(() -> client.connection().lateResponses(),
                client.connection().eventLoop()));
    }

    @Test
    void losingTheConnectionFailsEveryPendingCallAtOnce() {
        try (RpcFixture f = new RpcFixture()) {
            f.methods.register("never", request -> new CompletableFuture<>());
            RpcClient client = f.client();
            List<CompletableFuture<ByteString>> calls = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                calls.add(client.call("never", bytes("x"), Duration.ofMinutes(10)));
            }
            f.server.close();
            for (CompletableFuture<ByteString> call : calls) {
                assertEquals(RpcStatus.UNAVAILABLE, failure(call));
            }
            assertEquals(RpcStatus.UNAVAILABLE, failure(client.call("never", bytes("x"))));
        }
    }

    @Test
    void unknownMethodIsNotFoundAndTheConnectionStays() {
        try (RpcFixture f = new RpcFixture()) {
            TestMethods.registerOn(f.methods);
            RpcClient client = f.client();
            assertEquals(RpcStatus.NOT_FOUND, failure(client.call("no.such", bytes("x"))));
            assertEquals("cba", await(client.call(TestMethods.REVERSE, bytes("abc"))).toStringUtf8());
        }
    }

    @Test
    void oversizedPayloadIsRefusedOnEitherSide() {
        RpcConfig small = RpcConfig.builder().maxPayload(1000).build();
        try (RpcFixture f = new RpcFixture(small, RpcClientConfig.builder().build())) {
            TestMethods.registerOn(f.methods);
            RpcClient client = f.client();
            ByteString big = ByteString.copyFrom(new byte[1001]);
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(client.call(TestMethods.REVERSE, big)));
            assertEquals("ko", await(client.call(TestMethods.REVERSE, bytes("ok"))).toStringUtf8());
        }
        try (RpcFixture f = new RpcFixture(RpcConfig.DEFAULTS, RpcClientConfig.builder().rpc(small).build())) {
            RpcClient client = f.client();
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(client.call("anything", ByteString.copyFrom(new byte[1001]))));
        }
    }

    @Test
    void handlerExceptionIsInternalWithItsMessageAndTheConnectionStays() {
        try (RpcFixture f = new RpcFixture()) {
            f.methods.register("boom", request -> {
                throw new IllegalStateException("kaputt");
            });
            f.methods.register("async-boom", request -> CompletableFuture.failedFuture(new ArithmeticException("zero")));
            TestMethods.registerOn(f.methods);
            RpcClient client = f.client();
            CompletableFuture<ByteString> call = client.call("boom", bytes("x"));
            assertEquals(RpcStatus.INTERNAL, failure(call));
            String message = call.handle((v, e) -> e.getMessage()).join();
            assertTrue(message.contains("kaputt"), message);
            assertEquals(RpcStatus.INTERNAL, failure(client.call("async-boom", bytes("x"))));
            assertEquals("21", await(client.call(TestMethods.REVERSE, bytes("12"))).toStringUtf8());
        }
    }

    @Test
    void callsPastTheInFlightLimitAreResourceExhausted() {
        RpcConfig four = RpcConfig.builder().maxInFlight(4).build();
        try (RpcFixture f = new RpcFixture(four, RpcClientConfig.builder().build())) {
            List<CompletableFuture<ByteString>> held = new java.util.concurrent.CopyOnWriteArrayList<>();
            f.methods.register("hold", request -> {
                CompletableFuture<ByteString> answer = new CompletableFuture<>();
                held.add(answer);
                return answer;
            });
            RpcClient client = f.client();
            List<CompletableFuture<ByteString>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(client.call("hold", bytes("x")));
            }
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(client.call("hold", bytes("x"))));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> held.size() == 4);
            held.forEach(h -> h.complete(bytes("done")));
            for (CompletableFuture<ByteString> call : calls) {
                assertEquals("done", await(call).toStringUtf8());
            }
        }
        try (RpcFixture f = new RpcFixture(RpcConfig.DEFAULTS, RpcClientConfig.builder().rpc(four).build())) {
            f.methods.register("never", request -> new CompletableFuture<>());
            RpcClient client = f.client();
            for (int i = 0; i < 4; i++) {
                client.call("never", bytes("x"));
            }
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(client.call("never", bytes("x"))));
        }
    }

    @Test
    void blockingHandlersRunOnTheirExecutorNotTheEventLoop() {
        ExecutorService blocking = Executors.newSingleThreadExecutor(r -> new Thread(r, "blocking-worker"));
        try (RpcFixture f = new RpcFixture()) {
            f.methods.register("whereami", request -> CompletableFuture.completedFuture(
                    bytes(Thread.currentThread().getName())), blocking);
            RpcClient client = f.client();
            assertEquals("blocking-worker", await(client.call("whereami", bytes("x"))).toStringUtf8());
        } finally {
            blocking.shutdownNow();
        }
    }

    @Test
    void methodsComeAndGoWhileServing() {
        try (RpcFixture f = new RpcFixture()) {
            RpcClient client = f.client();
            assertEquals(RpcStatus.NOT_FOUND, failure(client.call("dyn", bytes("x"))));
            assertTrue(f.methods.register("dyn", RpcHandler.sync(p -> bytes("v1"))));
            assertFalse(f.methods.register("dyn", RpcHandler.sync(p -> bytes("v2"))));
            assertEquals("v1", await(client.call("dyn", bytes("x"))).toStringUtf8());
            assertTrue(f.methods.unregister("dyn"));
            assertEquals(RpcStatus.NOT_FOUND, failure(client.call("dyn", bytes("x"))));
        }
    }

    @Test
    void serverTimersCountByMethodAndStatusWithBoundedMethodTags() {
        RpcConfig twoTags = RpcConfig.builder().maxMethodTags(2).build();
        try (RpcFixture f = new RpcFixture(twoTags, RpcClientConfig.builder().build())) {
            TestMethods.registerOn(f.methods);
            RpcClient client = f.client();
            for (int i = 0; i < 3; i++) {
                await(client.call(TestMethods.REVERSE, bytes("ab")));
            }
            for (int i = 0; i < 5; i++) {
                failure(client.call("missing." + i, bytes("x")));
            }
            await(client.call(TestMethods.UPDATE, ByteString.EMPTY));
            assertEquals(3L, f.serverRegistry.get(RpcMetrics.SERVER_REQUESTS).tag("method", TestMethods.REVERSE)
                    .tag("status", "OK").timer().count());
            // Methods not served share "unknown", and count as one tag; past the cap of two, served ones share "other".
            assertEquals(java.util.Set.of(TestMethods.REVERSE, RpcMetrics.UNKNOWN_METHOD, RpcMetrics.OTHER_METHOD),
                    f.serverRegistry.find(RpcMetrics.SERVER_REQUESTS).timers().stream()
                            .map(t -> t.getId().getTag("method")).collect(java.util.stream.Collectors.toSet()));
            assertEquals(5L, f.serverRegistry.get(RpcMetrics.SERVER_REQUESTS).tag("method", RpcMetrics.UNKNOWN_METHOD)
                    .tag("status", "NOT_FOUND").timer().count());
        }
    }
}
