package io.ricochet.transport.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.session.FrameHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(30)
class TcpServerTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    static java.util.stream.Stream<TransportKind> transports() {
        return io.ricochet.testing.Transports.available();
    }

    /** The echo served: in place (a whole read at once), or one frame at a time in {@link TcpPerFrameServerTest}. */
    FrameHandler echo() {
        return new ReverseEcho();
    }

    /**
     * The pipelines' customizer: none, so the stages are fused; one that keeps them apart in the SeparateStages
     * subclass.
     */
    PipelineCustomizer customizer() {
        return PipelineCustomizer.NONE;
    }

    private RicochetServer start(ServerConfig.Builder config) {
        return TestServers.start(config.udpPort(ServerConfig.DISABLED).build(), echo(), registry, customizer());
    }

    @ParameterizedTest
    @MethodSource("transports")
    void answersEveryFrameReversedInOrderBothFieldWidths(TransportKind transport) throws IOException {
        for (LengthField field : LengthField.values()) {
            try (RicochetServer server = start(TestServers.config(transport).lengthField(field));
                    FrameClient client = new FrameClient(server.tcpAddress(), field.width())) {
                assertEquals(transport, server.transport());
                ByteArrayOutputStream pipelined = new ByteArrayOutputStream();
                for (int i = 0; i < 100; i++) {
                    pipelined.writeBytes(Frames.encode(field.width(), Frames.body(1 + i * 40, i)));
                }
                client.sendRaw(pipelined.toByteArray());
                for (int i = 0; i < 100; i++) {
                    assertArrayEquals(Frames.reversed(Frames.body(1 + i * 40, i)), client.receive(), "frame " + i);
                }
                byte[] max = Frames.body(server.config().maxFrame() == 4094 ? 4094 : 1 << 20, 99);
                client.send(max);
                assertArrayEquals(Frames.reversed(max), client.receive());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void anInvalidLengthClosesOnlyThatConnectionAfterEarlierReplies(TransportKind transport) throws IOException {
        try (RicochetServer server = start(TestServers.config(transport));
                FrameClient bad = new FrameClient(server.tcpAddress(), 2);
                FrameClient tooLong = new FrameClient(server.tcpAddress(), 2);
                FrameClient good = new FrameClient(server.tcpAddress(), 2)) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            wire.writeBytes(Frames.encode(2, new byte[] {1, 2, 3}));
            wire.writeBytes(Frames.header(2, 0));
            bad.sendRaw(wire.toByteArray());
            assertArrayEquals(new byte[] {3, 2, 1}, bad.receive(), "the reply owed before the bad frame");
            assertTrue(bad.isClosedByServer());

            tooLong.sendRaw(Frames.header(2, 4095));
            assertTrue(tooLong.isClosedByServer(), "closed on the length field alone");

            good.send(new byte[] {7, 8});
            assertArrayEquals(new byte[] {8, 7}, good.receive());
            await().atMost(5, TimeUnit.SECONDS).until(() -> Meters.closed(registry, "tcp", "protocol_error") == 2.0);
            assertEquals(1.0, Meters.protocolErrors(registry, "tcp", "empty"));
            assertEquals(1.0, Meters.protocolErrors(registry, "tcp", "too_long"));
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void closesAnIdleConnection(TransportKind transport) throws IOException {
        try (RicochetServer server = start(TestServers.config(transport).idleTimeout(Duration.ofMillis(300)));
                FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            client.send(new byte[] {1});
            assertArrayEquals(new byte[] {1}, client.receive());
            assertTrue(client.isClosedByServer());
            await().atMost(5, TimeUnit.SECONDS).until(() -> Meters.closed(registry, "tcp", "idle") == 1.0);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void closesAClientThatTricklesBytesButNeverCompletesAFrame(TransportKind transport) throws Exception {
        try (RicochetServer server = start(TestServers.config(transport).idleTimeout(Duration.ofMillis(500)));
                FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            client.sendRaw(Frames.header(2, 100));
            // One byte every 100 ms would take 10 s to finish the frame; the server must not wait for it.
            // (The sleep is the slow peer's pace, not a wait of the test's.)
            AtomicInteger trickled = new AtomicInteger();
            CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        client.sendRaw(new byte[] {1});
                        trickled.incrementAndGet();
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException e) {
                    // The server closed the connection: expected.
                }
            });
            assertTrue(client.isClosedByServer());
            await().atMost(5, TimeUnit.SECONDS).until(() -> Meters.closed(registry, "tcp", "idle") == 1.0);
            // Closed by the idle timeout while the frame was still incomplete, not once it was whole and answered.
            assertTrue(trickled.get() < 100, "the server waited for all " + trickled.get() + " bytes of the body");
            assertEquals(0L, framesReceived(), "no frame was completed");
            client.close();
            trickle.get(15, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void closesConnectionsPastTheLimitAtOnce(TransportKind transport) throws IOException {
        try (RicochetServer server = start(TestServers.config(transport).maxConnections(2));
                FrameClient a = new FrameClient(server.tcpAddress(), 2);
                FrameClient b = new FrameClient(server.tcpAddress(), 2)) {
            a.send(new byte[] {1});
            b.send(new byte[] {2});
            assertArrayEquals(new byte[] {1}, a.receive());
            assertArrayEquals(new byte[] {2}, b.receive());
            try (FrameClient c = new FrameClient(server.tcpAddress(), 2)) {
                assertTrue(c.isClosedByServer());
            }
            assertEquals(1.0, Meters.closed(registry, "tcp", "limit"));
            a.send(new byte[] {3});
            assertArrayEquals(new byte[] {3}, a.receive(), "admitted connections keep working");
        }
    }

    /** One peer could take a listener's whole cap; with a cap per address it holds its share, and others get in. */
    @ParameterizedTest
    @MethodSource("transports")
    void closesConnectionsPastTheCapPerAddressAtOnceWhileOtherAddressesAreAdmitted(TransportKind transport)
            throws IOException {
        InetAddress first = InetAddress.getByName("127.0.0.1");
        InetAddress second = InetAddress.getByName("127.0.0.2");
        try (RicochetServer server = start(TestServers.config(transport).maxConnectionsPerAddress(2));
                FrameClient a = FrameClient.from(first, server.tcpAddress(), 2);
                FrameClient b = FrameClient.from(first, server.tcpAddress(), 2)) {
            a.send(new byte[] {1});
            b.send(new byte[] {2});
            assertArrayEquals(new byte[] {1}, a.receive());
            assertArrayEquals(new byte[] {2}, b.receive());
            try (FrameClient c = FrameClient.from(first, server.tcpAddress(), 2)) {
                assertTrue(c.isClosedByServer(), "a third connection from one address");
            }
            assertEquals(1.0, Meters.closed(registry, "tcp", "limit"));
            try (FrameClient other = FrameClient.from(second, server.tcpAddress(), 2)) {
                other.send(new byte[] {4});
                assertArrayEquals(new byte[] {4}, other.receive(), "another address is admitted");
            }
            b.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> server.activeConnections() == 1);
            try (FrameClient d = FrameClient.from(first, server.tcpAddress(), 2)) {
                d.send(new byte[] {5});
                assertArrayEquals(new byte[] {5}, d.receive(), "a closed connection gave its place back");
            }
            assertEquals(1.0, Meters.closed(registry, "tcp", "limit"));
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void stopsReadingAClientThatNeverReadsItsReplies(TransportKind transport) throws Exception {
        int low = 16 * 1024;
        int high = 32 * 1024;
        long bound = high + 256 * 1024; // the mark plus the replies to one read batch
        int total = 16_384; // 64 MiB of frames, far more than the kernel buffers on the way
        try (RicochetServer server = start(TestServers.config(transport).writeBufferWatermarks(low, high));
                FrameClient client = new FrameClient(server.tcpAddress(), 2, 4096)) {
            byte[] frame = Frames.encode(2, Frames.body(4094, 3));
            AtomicLong sent = new AtomicLong();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = client.socket().getOutputStream();
                    for (int i = 0; i < total; i++) {
                        out.write(frame);
                        sent.incrementAndGet();
                    }
                } catch (IOException e) {
                    // Closed at the end of the test.
                }
            });
            // The kernel buffers fill first; then replies queue in the server past the high mark and reading stops.
            long[] last = {-1};
            await().atMost(20, TimeUnit.SECONDS).pollInterval(300, TimeUnit.MILLISECONDS).until(() -> {
                long pending = server.pendingOutboundBytes();
                assertTrue(pending <= bound, "queued " + pending + " > bound " + bound);
                long now = framesReceived();
                // Paused reading leaves the queue between the marks until it drains below the low one.
                boolean stopped = now == last[0] && pending >= low;
                last[0] = now;
                return stopped;
            });
            // Paused it stays, with the queue bounded, for half a second: checked every 50 ms, failed at the first miss.
            ThrowingRunnable pausedAndBounded = () -> {
                long pending = server.pendingOutboundBytes();
                assertTrue(pending <= bound, "queued " + pending + " > bound " + bound);
                assertEquals(last[0], framesReceived(), "reading stayed paused");
            };
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                    .failFast(pausedAndBounded).untilAsserted(pausedAndBounded);
            assertTrue(sent.get() < total, "the client is blocked, not done: " + sent.get());
            client.close();
            writer.get(10, TimeUnit.SECONDS);
        }
    }

    private long framesReceived() {
        return (long) Meters.count(registry, MeterNames.FRAMES_RECEIVED, MeterNames.TAG_PROTOCOL, "tcp");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void answersEverythingBeforeAHalfCloseThenClosesAndCountsAPartialFrame(TransportKind transport) throws IOException {
        try (RicochetServer server = start(TestServers.config(transport));
                FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (int i = 0; i < 50; i++) {
                wire.writeBytes(Frames.encode(2, Frames.body(100, i)));
            }
            wire.writeBytes(Frames.header(2, 10));
            wire.write(1);
            client.sendRaw(wire.toByteArray());
            client.shutdownOutput();
            for (int i = 0; i < 50; i++) {
                assertArrayEquals(Frames.reversed(Frames.body(100, i)), client.receive(), "frame " + i);
            }
            assertTrue(client.isClosedByServer());
            await().atMost(5, TimeUnit.SECONDS).until(() -> Meters.protocolErrors(registry, "tcp", "truncated") == 1.0);
            assertEquals(1.0, Meters.closed(registry, "tcp", "peer"));
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void gracefulShutdownFlushesOwedRepliesThenCloses(TransportKind transport) throws Exception {
        RicochetServer server = start(TestServers.config(transport).writeBufferWatermarks(16 << 20, 32 << 20));
        try (FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            int frames = 4000; // 16 MB of replies: more than the kernel buffers on the way can hold
            byte[] body = Frames.body(4000, 5);
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (int i = 0; i < frames; i++) {
                wire.writeBytes(Frames.encode(2, body));
            }
            client.sendRaw(wire.toByteArray());
            // The client has not read yet: the replies wait in the server's queue and the kernel buffers.
            await().atMost(10, TimeUnit.SECONDS).until(() -> framesReceived() == frames);
            assertTrue(server.pendingOutboundBytes() > 0, "replies are owed when the shutdown starts");
            Counter closedAtShutdown = registry.get(MeterNames.CONNECTIONS_CLOSED).tag(MeterNames.TAG_REASON, "shutdown")
                    .counter();
            CompletableFuture<Void> shutdown = server.stop();
            byte[] reversed = Frames.reversed(body);
            for (int i = 0; i < frames; i++) {
                assertTrue(Arrays.equals(reversed, client.receive()), "reply " + i);
            }
            assertTrue(client.isClosedByServer());
            shutdown.get(15, TimeUnit.SECONDS);
            assertEquals(1.0, closedAtShutdown.count());
            assertTrue(server.terminationFuture().isDone());
        } finally {
            server.close();
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void metersCountExactlyTheTrafficSent(TransportKind transport) throws IOException {
        int k = 1234;
        try (RicochetServer server = start(TestServers.config(transport))) {
            try (FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
                for (int i = 0; i < k; i++) {
                    client.send(new byte[] {(byte) i, 1, 2});
                    client.receive();
                }
                assertEquals(1, server.activeConnections());
            }
            await().atMost(5, TimeUnit.SECONDS).until(() -> server.activeConnections() == 0);
            assertEquals(k, framesReceived());
            assertEquals(k, Meters.count(registry, MeterNames.FRAMES_SENT, MeterNames.TAG_PROTOCOL, "tcp"));
            assertEquals(5.0 * k, Meters.count(registry, MeterNames.BYTES_RECEIVED, MeterNames.TAG_PROTOCOL, "tcp"));
            assertEquals(5.0 * k, Meters.count(registry, MeterNames.BYTES_SENT, MeterNames.TAG_PROTOCOL, "tcp"));
            assertEquals(1.0, Meters.count(registry, MeterNames.CONNECTIONS_OPENED, MeterNames.TAG_PROTOCOL, "tcp"));
            assertEquals(1.0, Meters.closed(registry, "tcp", "peer"));
            assertEquals(1.0, registry.get(MeterNames.CONNECTIONS_OPENED).tag(MeterNames.TAG_IO, transport.label()).counter()
                    .count(), "the io tag names the transport");
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aReplyGivenLaterFromATimerOrAnotherThreadIsFlushed(TransportKind transport) throws IOException {
        ExecutorService worker = Executors.newSingleThreadExecutor();
        FrameHandler deferred = (session, body) -> {
            ReverseEcho.reverse(body);
            if (body.getByte(body.readerIndex()) == 1) {
                session.eventLoop().schedule(() -> session.send(body), 10, TimeUnit.MILLISECONDS);
            } else {
                worker.execute(() -> session.send(body));
            }
        };
        try (RicochetServer server = TestServers.start(TestServers.config(transport).udpPort(ServerConfig.DISABLED)
                .build(), deferred, registry);
                FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            client.send(new byte[] {9, 1});
            assertArrayEquals(new byte[] {1, 9}, client.receive(), "from a timer on the event loop");
            client.send(new byte[] {9, 2});
            assertArrayEquals(new byte[] {2, 9}, client.receive(), "from another thread");
        } finally {
            worker.shutdownNow();
        }
    }
}
