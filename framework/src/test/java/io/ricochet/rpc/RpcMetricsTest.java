package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.server.ServerStartException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The RPC meters are on a registry exactly while their owner runs: not after a failed start, not after a stop. */
@Timeout(60)
class RpcMetricsTest {

    @Test
    void aServerThatCannotBindLeavesNoMetersAndItsNameFree() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            RpcServer blocked = RpcServer.builder().config(TestServers.config(TransportKind.AUTO)
                    .tcpPort(taken.getLocalPort()).build()).dispatcher(new RpcDispatcher()).meterRegistry(registry).build();
            // Not closed: started in a try-with-resources header, a failed server is never in the caller's hands.
            assertThrows(ServerStartException.class, blocked::startAndAwait);
            assertEquals(List.of(), rpcMeters(registry));
        }
        // The same name, on a port that is free.
        try (RpcServer retry = RpcServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .dispatcher(new RpcDispatcher()).meterRegistry(registry).build().startAndAwait()) {
            assertEquals(1, registry.find(RpcMetrics.SERVER_IN_FLIGHT).meters().size());
        }
        assertEquals(List.of(), rpcMeters(registry));
    }

    @Test
    void aLateAnswerAfterStopRegistersNothing() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EventLoops loops = EventLoops.create(TransportKind.AUTO, 1, "shared");
        CompletableFuture<ByteString> answer = new CompletableFuture<>();
        CountDownLatch started = new CountDownLatch(1);
        RpcDispatcher methods = new RpcDispatcher();
        methods.register("slow", request -> {
            started.countDown();
            return answer;
        });
        try (RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            RpcServer server = RpcServer.builder().config(TestServers.config(TransportKind.AUTO)
                    .shutdownTimeout(Duration.ofMillis(300)).build()).dispatcher(methods).eventLoops(loops, false)
                    .meterRegistry(registry).build().startAndAwait();
            RpcClient client = await(clients.connect(server.address()));
            CompletableFuture<ByteString> call = client.call("slow", bytes("x"), Duration.ofSeconds(30));
            assertTrue(started.await(10, TimeUnit.SECONDS));
            server.stop().get(20, TimeUnit.SECONDS);
            assertEquals(RpcStatus.UNAVAILABLE, failure(call));
            assertEquals(List.of(), rpcMeters(registry));
            // The answer comes after the stop: the server counts it on its loop, which is still running.
            answer.complete(bytes("late"));
            loops.group().submit(() -> { }).get(10, TimeUnit.SECONDS);
            assertEquals(List.of(), rpcMeters(registry));
        } finally {
            loops.close();
        }
    }

    @Test
    void finishedSinceTimesTheCallFromItsStart() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RpcMetrics metrics = registeredServerSide(registry);
        metrics.started();
        metrics.finishedSince("a", RpcStatus.OK, System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(5));
        Timer timer = timerOfOk(registry, "a");
        assertEquals(1L, timer.count());
        double millis = timer.totalTime(TimeUnit.MILLISECONDS);
        assertTrue(millis >= 5, "recorded " + millis + " ms");
        assertEquals(0, metrics.inFlight());
    }

    @Test
    void closedMetersCountNothingAndRegisterNothing() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RpcMetrics metrics = registeredServerSide(registry);
        metrics.started();
        metrics.finished("a", RpcStatus.OK, 1);
        assertEquals(1L, timerOfOk(registry, "a").count());
        metrics.close();
        metrics.started();
        metrics.started();
        metrics.started();
        metrics.finished("b", RpcStatus.OK, 1);
        metrics.finished("a", RpcStatus.OK, 1);
        metrics.finishedSince("a", RpcStatus.OK, System.nanoTime());
        assertEquals(List.of(), registry.getMeters());
        assertEquals(0, metrics.inFlight());
    }

    @Test
    void aTakenNameIsAClearStartFailureThatBindsNothing() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RpcServer first = RpcServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .dispatcher(new RpcDispatcher()).meterRegistry(registry).build().startAndAwait()) {
            RpcServer second = RpcServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                    .dispatcher(new RpcDispatcher()).meterRegistry(registry).build();
            ServerStartException e = assertThrows(ServerStartException.class, second::startAndAwait);
            assertTrue(e.getMessage().contains("name=rpc") && e.getMessage().contains(".name("), e.getMessage());
            assertEquals(null, second.address());
            second.close();
            // The first one's meters are untouched.
            assertEquals(1, registry.find(RpcMetrics.SERVER_IN_FLIGHT).meters().size());
            // A client group may not take a server's name either; one of its own is fine.
            IllegalStateException clash = assertThrows(IllegalStateException.class, () -> RpcClients.create(
                    RpcClientConfig.builder().name("rpc").build(), registry));
            assertTrue(clash.getMessage().contains(RpcMetrics.SERVER_IN_FLIGHT + "{name=rpc}")
                    || clash.getMessage().contains(RpcMetrics.CLIENT_IN_FLIGHT + "{name=rpc}"), clash.getMessage());
            RpcClients.create(RpcClientConfig.builder().name("own").build(), registry).close();
            assertEquals(1, registry.find(RpcMetrics.SERVER_IN_FLIGHT).meters().size());
        }
    }

    /** Two groups taking one name at once: the check and the registration are one step, so exactly one wins. */
    @Test
    void twoGroupsRacingForOneNameCannotBothWin() throws Exception {
        GatedRegistry registry = new GatedRegistry();
        registry.armed = true;
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<RpcClients>> racing = List.of(
                    threads.submit(() -> RpcClients.create(RpcClientConfig.builder().name("same").build(), registry)),
                    threads.submit(() -> RpcClients.create(RpcClientConfig.builder().name("same").build(), registry)));
            int failed = 0;
            for (Future<RpcClients> group : racing) {
                try {
                    group.get(20, TimeUnit.SECONDS).close();
                } catch (ExecutionException e) {
                    assertTrue(e.getCause() instanceof IllegalStateException, e.getCause().toString());
                    failed++;
                }
            }
            registry.armed = false;
            assertEquals(1, failed);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * While armed, each thread's n-th look at the registry sees it as it was when the look began, but returns
     * only once another thread's n-th look has begun too, or after 500 ms: two owners that check a name, then
     * register it, without one lock over both, then both find it free.
     */
    private static final class GatedRegistry extends SimpleMeterRegistry {
        private final Map<Integer, CountDownLatch> gates = new ConcurrentHashMap<>();
        private final ThreadLocal<Integer> looks = ThreadLocal.withInitial(() -> 0);
        private volatile boolean armed;

        @Override
        public List<Meter> getMeters() {
            List<Meter> seen = super.getMeters();
            if (armed) {
                int look = looks.get() + 1;
                looks.set(look);
                CountDownLatch both = gates.computeIfAbsent(look, n -> new CountDownLatch(2));
                both.countDown();
                try {
                    both.await(500, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return seen;
        }
    }

    private static List<String> rpcMeters(SimpleMeterRegistry registry) {
        return registry.getMeters().stream().map(Meter::getId).filter(id -> id.getName().startsWith("ricochet.rpc"))
                .map(Object::toString).toList();
    }

    private static RpcMetrics registeredServerSide(SimpleMeterRegistry registry) {
        RpcMetrics metrics = RpcMetrics.server(registry, "m", RpcConfig.DEFAULTS);
        RpcMetrics.register(metrics);
        return metrics;
    }

    private static Timer timerOfOk(SimpleMeterRegistry registry, String method) {
        return registry.get(RpcMetrics.SERVER_REQUESTS).tag("method", method).tag("status", "OK").timer();
    }
}
