package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MeterNames;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.testing.Meters;
import io.ricochet.testing.TestServers;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keepalive: pings keep an idle connection open past the server's idle timeout, whatever the client
 * hears; any frame heard after a ping shows the peer alive; only silence after a ping closes.
 */
@Timeout(60)
class RpcKeepaliveTest {
    private static final Duration KEEPALIVE = Duration.ofMillis(400);
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(1);
    /** Pings the server must see with the client still connected: several idle timeouts' worth. */
    private static final int PINGS = 6;

    @Test
    void anIdleClientStaysConnectedPastSeveralIdleTimeouts() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RpcDispatcher methods = new RpcDispatcher();
        methods.register("hi", RpcHandler.sync(p -> bytes("hi")));
        try (RpcServer server = idleTimingOutServer(methods, registry);
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().keepalive(KEEPALIVE).build(), null)) {
            RpcClient client = await(clients.connect(server.address()));
            await(client.call("hi", bytes("x")));
            // The hello ping and the call, then nothing but keepalive pings.
            awaitPingsWhileConnected(registry, client, 2 + PINGS);
            assertEquals(0.0, Meters.closedOf(registry, RpcServer.METER_TAG, "idle"));
        }
    }

    /** The client hears frames all the time but sends none of its own: it must still ping, for the server's sake. */
    @Test
    void aClientThatOnlyListensStillPings() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ScheduledExecutorService pusher = Executors.newSingleThreadScheduledExecutor();
        List<ScheduledFuture<?>> pushes = new CopyOnWriteArrayList<>();
        RpcDispatcher methods = new RpcDispatcher();
        methods.register("subscribe", request -> {
            // Pushes a note to the caller every 50 ms: the client is never silent to itself.
            pushes.add(pusher.scheduleAtFixedRate(() -> request.caller().send("note", bytes("n")), 0, 50,
                    TimeUnit.MILLISECONDS));
            return CompletableFuture.completedFuture(ByteString.EMPTY);
        });
        AtomicInteger notes = new AtomicInteger();
        try (RpcServer server = idleTimingOutServer(methods, registry);
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().keepalive(KEEPALIVE).build(), null)) {
            RpcClient client = await(clients.connect(server.address()));
            client.handle("note", request -> {
                notes.incrementAndGet();
                return CompletableFuture.completedFuture(ByteString.EMPTY);
            });
            await(client.call("subscribe", ByteString.EMPTY));
            awaitPingsWhileConnected(registry, client, 2 + PINGS);
            assertTrue(notes.get() > 0, "the server pushed");
            assertEquals(0.0, Meters.closedOf(registry, RpcServer.METER_TAG, "idle"));
        } finally {
            pushes.forEach(p -> p.cancel(false));
            pusher.shutdownNow();
        }
    }

    /** A server that holds every ping's answer while it sends other frames: the client must not give up on it. */
    @Test
    void aPingAnswerQueuedBehindOtherTrafficDoesNotCloseTheConnection() throws Exception {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger ticks = new AtomicInteger();
        // 500 ms, ten ticks: a tick that a loaded machine delays by a few hundred ms must not look like silence.
        try (RawRpcServer raw = new RawRpcServer();
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().keepalive(Duration.ofMillis(500))
                        .build(), null)) {
            CompletableFuture<RpcClient> connecting = clients.connect(raw.address());
            try (RawRpcPeer peer = raw.accept()) {
                RpcClient client = await(connecting);
                client.handle("tick", request -> {
                    ticks.incrementAndGet();
                    return CompletableFuture.completedFuture(ByteString.EMPTY);
                });
                List<Envelope> heldPings = new CopyOnWriteArrayList<>();
                // Silent until the first ping, then a one-way tick every 50 ms, and no answer to any ping.
                heldPings.add(nextPing(peer));
                ScheduledFuture<?> ticking = ticker.scheduleAtFixedRate(() -> sendQuietly(peer,
                        Envelope.newBuilder().setKind(Kind.ONE_WAY).setMethod("tick").build()), 0, 50, TimeUnit.MILLISECONDS);
                heldPings.add(nextPing(peer));
                heldPings.add(nextPing(peer));
                // Three pings went unanswered, the last two long past a keepalive interval of their own.
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !client.isConnected() || ticks.get() >= 20);
                assertTrue(client.isConnected(), "closed with its pings unanswered but ticks heard");
                ticking.cancel(false);
                for (Envelope ping : heldPings) {
                    peer.send(Envelope.newBuilder().setId(ping.getId()).setKind(Kind.RESPONSE).build());
                }
                assertEquals(RpcConnection.PING, heldPings.get(0).getMethod());
                assertTrue(client.isConnected());
            }
        } finally {
            ticker.shutdownNow();
        }
    }

    /** A peer that never answers anything: the client closes, fails its calls, and does not call it a stalled reader. */
    @Test
    void aPeerSilentAfterAPingIsClosedAndItsCallsFail() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RawRpcServer raw = new RawRpcServer();
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().keepalive(Duration.ofMillis(200))
                        .build(), registry)) {
            CompletableFuture<RpcClient> connecting = clients.connect(raw.address());
            try (RawRpcPeer peer = raw.accept()) {
                RpcClient client = await(connecting);
                CompletableFuture<ByteString> call = client.call("anything", bytes("x"), Duration.ofMinutes(5));
                assertEquals(RpcStatus.UNAVAILABLE, failure(call));
                assertEquals(false, client.isConnected());
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> Meters.count(registry,
                        MeterNames.CONNECTIONS_CLOSED, MeterNames.TAG_ROLE, "client") == 1.0);
                assertEquals(0.0, Meters.closedOf(registry, "rpc-client", "stalled"));
            }
        }
    }

    private static RpcServer idleTimingOutServer(RpcDispatcher methods, SimpleMeterRegistry registry) {
        return RpcServer.builder().config(TestServers.config(TransportKind.AUTO).idleTimeout(IDLE_TIMEOUT).build())
                .dispatcher(methods).meterRegistry(registry).build().startAndAwait();
    }

    /** Waits until the server has received {@code frames} frames, failing at once if the client is disconnected first. */
    private static void awaitPingsWhileConnected(SimpleMeterRegistry registry, RpcClient client, int frames) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !client.isConnected()
                || Meters.count(registry, MeterNames.FRAMES_RECEIVED, MeterNames.TAG_ROLE, "server") >= frames);
        assertTrue(client.isConnected(), "disconnected after " + Meters.count(registry, MeterNames.FRAMES_RECEIVED,
                MeterNames.TAG_ROLE, "server") + " frames");
    }

    /** The next ping the client sends, skipping anything else. */
    private static Envelope nextPing(RawRpcPeer peer) throws IOException {
        while (true) {
            Envelope envelope = peer.receive();
            if (envelope.getKind() == Kind.REQUEST && envelope.getMethod().equals(RpcConnection.PING)) {
                return envelope;
            }
        }
    }

    private static void sendQuietly(RawRpcPeer peer, Envelope envelope) {
        try {
            peer.send(envelope);
        } catch (IOException e) {
            // The client went away; the test's own checks say so.
        }
    }
}
