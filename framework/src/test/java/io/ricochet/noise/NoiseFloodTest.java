package io.ricochet.noise;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.southernstorm.noise.protocol.HandshakeState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.client.FrameClient.FrameExchange;
import io.ricochet.transport.client.FrameClient;
import io.ricochet.transport.server.RicochetServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 31: one captured first handshake message, replayed from many connections at once, costs its sender nothing
 * and cost the server 2 ms of event-loop time each, which starved every port on the loops. Now the flood is shed past
 * the bounds, before any key agreement, and what is admitted is computed off the loops: connections already
 * established on the same event loop, plaintext and Noise, keep being served throughout.
 */
@Timeout(120)
class NoiseFloodTest {
    private static final NoiseKeyPair KEY = NoiseKeyPair.generate();
    /** Flooding connections in flight at once, spread over four loopback source addresses. */
    private static final int FLOODERS = 24;
    private static final int SOURCES = 4;
    private static final int MIN_ROUND_TRIPS = 200;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void aFloodOfReplayedFirstMessagesIsShedWhileEstablishedConnectionsAreServed() throws Exception {
        // One event loop for both listeners, as the echo server shares its loops: the worst case for starvation.
        try (EventLoops loops = EventLoops.create(TransportKind.AUTO, 1, "flood-io");
             RicochetServer plain = RicochetServer.builder().config(config()).handler(new ReverseEcho())
                     .eventLoops(loops, false).meterRegistry(registry).name("echo").build().startAndAwait();
             RicochetServer noise = RicochetServer.builder().config(config()).handler(new ReverseEcho())
                     .eventLoops(loops, false).meterRegistry(registry).name("noise").tcpProtocolTag("noise")
                     .noise(ServerNoiseConfig.builder(KEY).maxHandshakes(8).maxHandshakesPerAddress(4).handshakeThreads(1)
                             .build()).build().startAndAwait();
             io.ricochet.testing.FrameClient established = new io.ricochet.testing.FrameClient(plain.tcpAddress(), 2);
             FrameClient noiseClients = FrameClient.builder()
                     .noise(ClientNoiseConfig.builder(KEY.publicKey()).build()).build()) {
            FrameExchange establishedNoise = noiseClients.connect(noise.tcpAddress()).get(20, TimeUnit.SECONDS);
            Flood flood = new Flood(noise.tcpAddress(), firstMessage());
            flood.start();
            long roundTrips = 0;
            long slowest = 0;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                // Round trips on both established connections for as long as it takes the flood to be shed both ways.
                while (roundTrips < MIN_ROUND_TRIPS || shed("max_handshakes_per_address") == 0
                        || shed("max_handshakes") == 0) {
                    assertTrue(System.nanoTime() < deadline, "not shed both ways within 60 s: max_handshakes_per_address "
                            + shed("max_handshakes_per_address") + ", max_handshakes " + shed("max_handshakes") + "; " + flood);
                    byte[] body = Frames.body(32, roundTrips);
                    long start = System.nanoTime();
                    established.send(body);
                    assertArrayEquals(Frames.reversed(body), established.receive(), "plaintext round trip " + roundTrips);
                    assertArrayEquals(Frames.reversed(body), bytes(establishedNoise.request(Unpooled.wrappedBuffer(body))
                            .get(10, TimeUnit.SECONDS)), "noise round trip " + roundTrips);
                    slowest = Math.max(slowest, System.nanoTime() - start);
                    roundTrips++;
                }
            } finally {
                flood.stop();
            }
            System.out.printf("flood: %s; %d round trips on each established connection, the slowest pair %.1f ms%n",
                    flood, roundTrips, slowest / 1e6);
            assertTrue(flood.answered.get() > 0, "no flooded handshake was answered: the port stopped serving");
            await().atMost(10, TimeUnit.SECONDS).until(() -> inProgress() == 0.0);
            // The port still takes new clients once the flood is over.
            FrameExchange after = noiseClients.connect(noise.tcpAddress()).get(20, TimeUnit.SECONDS);
            byte[] body = Frames.body(10, 1);
            assertArrayEquals(Frames.reversed(body), bytes(after.request(Unpooled.wrappedBuffer(body)).get(10, TimeUnit.SECONDS)));
            assertEquals(0.0, Meters.protocolErrors(registry, "noise", "noise"), "a shed counted as the client's error");
        }
    }

    private static ServerConfig config() {
        return TestServers.config(TransportKind.AUTO).udpPort(ServerConfig.DISABLED).build();
    }

    private double shed(String reason) {
        return Meters.count(registry, MeterNames.NOISE_HANDSHAKES_SHED, MeterNames.TAG_NAME, "noise", MeterNames.TAG_REASON,
                reason);
    }

    private double inProgress() {
        Gauge gauge = registry.find(MeterNames.NOISE_HANDSHAKES_IN_PROGRESS).tag(MeterNames.TAG_NAME, "noise").gauge();
        return gauge == null ? -1 : gauge.value();
    }

    /** A real client's first message, its length in front: captured once, replayed by every flooding connection. */
    private static byte[] firstMessage() throws Exception {
        HandshakeState client = NoiseProtocol.newHandshake(HandshakeState.INITIATOR);
        client.getRemotePublicKey().setPublicKey(KEY.publicKey(), 0);
        client.start();
        byte[] message = new byte[128];
        int length = client.writeMessage(message, 0, new byte[] {1, 1, 32}, 0, 3);
        client.destroy();
        return RawNoiseClient.withLength(Arrays.copyOf(message, length));
    }

    private static byte[] bytes(ByteBuf reply) {
        try {
            return ByteBufUtil.getBytes(reply);
        } finally {
            reply.release();
        }
    }

    /** Connect, send the replayed message, wait for the answer or the close, reset; from every flooder, until stopped. */
    private static final class Flood {
        private final InetSocketAddress target;
        private final byte[] message;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();
        final AtomicLong answered = new AtomicLong();
        final AtomicLong closedUnanswered = new AtomicLong();
        final AtomicLong failed = new AtomicLong();

        Flood(InetSocketAddress target, byte[] message) {
            this.target = target;
            this.message = message;
        }

        void start() {
            for (int i = 0; i < FLOODERS; i++) {
                // 127.0.0.1 to 127.0.0.4: four sources, so the total bound is reached as well as each source's.
                InetSocketAddress source = new InetSocketAddress("127.0.0." + (1 + i % SOURCES), 0);
                Thread thread = new Thread(() -> run(source), "flood-" + i);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
        }

        private void run(InetSocketAddress source) {
            byte[] answer = new byte[64];
            while (running.get()) {
                try (Socket socket = new Socket()) {
                    socket.setSoLinger(true, 0);
                    socket.setSoTimeout(10_000);
                    socket.bind(source);
                    socket.connect(target, 5_000);
                    socket.getOutputStream().write(message);
                    InputStream in = socket.getInputStream();
                    int got = 0;
                    for (int n; got < 2 && (n = in.read(answer, got, answer.length - got)) > 0; ) {
                        got += n;
                    }
                    (got >= 2 ? answered : closedUnanswered).incrementAndGet();
                } catch (IOException e) {
                    failed.incrementAndGet();
                }
            }
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(15_000);
            }
        }

        @Override
        public String toString() {
            return "answered " + answered + ", closed unanswered " + closedUnanswered + ", failed " + failed;
        }
    }
}
