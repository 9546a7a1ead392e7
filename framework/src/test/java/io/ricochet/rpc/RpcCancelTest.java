package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A caller's cancel reaches whoever does the work, and nothing is cancelled once it has been answered. */
@Timeout(60)
class RpcCancelTest {

    /** A handler on an executor that polls the flag in a tight loop, as blocking work does between steps. */
    @Test
    void aHandlerPollingOnAnExecutorSeesTheCancel() throws Exception {
        ExecutorService blocking = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "polling-handler");
            t.setDaemon(true);
            return t;
        });
        try (RpcFixture f = new RpcFixture()) {
            CountDownLatch polling = new CountDownLatch(1);
            CompletableFuture<Long> stopped = new CompletableFuture<>();
            f.methods.register("poll", request -> {
                polling.countDown();
                long spins = 0;
                while (!request.isCancelled()) {
                    spins++;
                }
                stopped.complete(spins);
                return CompletableFuture.completedFuture(ByteString.EMPTY);
            }, blocking);
            RpcClient client = f.client();
            CompletableFuture<ByteString> call = client.call("poll", bytes("x"), Duration.ofSeconds(30));
            assertTrue(polling.await(10, TimeUnit.SECONDS));
            // Time for the JIT to compile the loop, which may then keep a plain field's value in a register for good.
            CountDownLatch compiled = new CountDownLatch(1);
            client.connection().eventLoop().schedule(compiled::countDown, 500, TimeUnit.MILLISECONDS);
            assertTrue(compiled.await(10, TimeUnit.SECONDS));
            call.cancel(false);
            assertTrue(stopped.get(20, TimeUnit.SECONDS) >= 0);
        } finally {
            blocking.shutdownNow();
        }
    }

    @Test
    void onCancelAfterTheAnswerNeverRuns() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            AtomicReference<RpcRequest> served = new AtomicReference<>();
            f.methods.register("quick", request -> {
                served.set(request);
                return CompletableFuture.completedFuture(bytes("done"));
            });
            RpcClient client = f.client();
            assertEquals("done", await(client.call("quick", bytes("x"), Duration.ofMillis(300))).toStringUtf8());
            RpcRequest request = served.get();
            AtomicBoolean ran = new AtomicBoolean();
            request.onCancel(() -> ran.set(true));
            // A deadline timer armed by that onCancel would fire on this loop before this marker does.
            CountDownLatch pastDeadline = new CountDownLatch(1);
            request.caller().eventLoop().schedule(pastDeadline::countDown, request.remainingNanos()
                    + TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.NANOSECONDS);
            assertTrue(pastDeadline.await(10, TimeUnit.SECONDS));
            assertFalse(ran.get(), "a call answered OK was cancelled");
            assertFalse(request.isCancelled());
        }
    }

    @Test
    void theAgentPassesTheCallersCancelToTheRouteOwner() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            RpcClient owner = f.client();
            RpcClient caller = f.client();
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Boolean> ownerHeard = new CompletableFuture<>();
            await(owner.serve("svc/slow", request -> {
                request.onCancel(() -> ownerHeard.complete(request.isCancelled()));
                started.countDown();
                return new CompletableFuture<>();
            }));
            CompletableFuture<ByteString> call = caller.call("svc/slow", bytes("x"), Duration.ofSeconds(30));
            assertTrue(started.await(10, TimeUnit.SECONDS));
            call.cancel(false);
            assertTrue(ownerHeard.get(10, TimeUnit.SECONDS));
            // The agent counts its hop as cancelled, not as a failure of the route.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> f.serverRegistry
                    .find(RpcMetrics.SERVER_REQUESTS).tag("method", RpcMetrics.AGENT_ROUTE).tag("status", "CANCELLED")
                    .timers().stream().mapToLong(t -> t.count()).sum() == 1);
        }
    }

    /** Completing a call's future with a CancellationException is a cancel too: the handler hears of it. */
    @Test
    void completingTheFutureWithACancellationTellsTheCallee() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            CountDownLatch cancelled = new CountDownLatch(1);
            f.methods.register("slow", request -> {
                request.onCancel(cancelled::countDown);
                return new CompletableFuture<>();
            });
            f.methods.register("echo", RpcHandler.sync(p -> p));
            RpcClient client = f.client();
            CompletableFuture<ByteString> call = client.call("slow", bytes("x"), Duration.ofSeconds(30));
            await(client.call("echo", bytes("the request is in")));
            assertTrue(call.completeExceptionally(new java.util.concurrent.CancellationException("gave up")));
            assertTrue(cancelled.await(10, TimeUnit.SECONDS), "the handler's cancel signal ran");
        }
    }

    /** The caller sent CANCEL and waits for nothing: an answer the handler gives later is not sent. */
    @Test
    void aRequestCancelledByItsCallerIsNotAnswered() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            CompletableFuture<ByteString> answer = new CompletableFuture<>();
            CountDownLatch cancelled = new CountDownLatch(1);
            f.methods.register("slow", request -> {
                request.onCancel(cancelled::countDown);
                return answer;
            });
            f.methods.register("echo", RpcHandler.sync(p -> p));
            RpcClient client = f.client();
            CompletableFuture<ByteString> call = client.call("slow", bytes("x"), Duration.ofSeconds(30));
            await(client.call("echo", bytes("in order")));
            call.cancel(false);
            assertTrue(cancelled.await(10, TimeUnit.SECONDS));
            answer.complete(bytes("nobody waits"));
            // Answers come back in the order given: had the late one been sent, it would be in before this one.
            assertEquals("after", await(client.call("echo", bytes("after"))).toStringUtf8());
            assertEquals(0L, await(CompletableFuture.supplyAsync(client.connection()::lateResponses,
                    client.connection().eventLoop())));
        }
    }
}
