package io.ricochet.transport.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.Frames;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What a handler gets from its session: a stop that waits for owed replies, writability, ordered replies from elsewhere. */
@Timeout(30)
class SessionApiTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ExecutorService worker = Executors.newSingleThreadExecutor();

    static Stream<TransportKind> transports() {
        return io.ricochet.testing.Transports.available();
    }

    /** A shutdown once flushed only replies already handed over: one still being computed was lost. */
    @ParameterizedTest
    @MethodSource("transports")
    void aStopWaitsForAReplyStillBeingComputed(TransportKind transport) throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        FrameHandler slow = (session, body) -> {
            received.countDown();
            ReverseEcho.reverse(body);
            session.eventLoop().schedule(() -> session.send(body), 200, TimeUnit.MILLISECONDS);
        };
        RicochetServer server = TestServers.start(TestServers.config(transport).udpPort(ServerConfig.DISABLED).build(), slow,
                registry);
        try (FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            client.send(new byte[] {1, 2, 3});
            assertTrue(received.await(10, TimeUnit.SECONDS));
            CompletableFuture<Void> stopped = server.stop();
            assertArrayEquals(new byte[] {3, 2, 1}, client.receive(), "the reply owed when the stop began");
            assertTrue(client.isClosedByServer());
            stopped.get(10, TimeUnit.SECONDS);
        } finally {
            server.close();
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void repliesFromAnotherThreadKeepTheirOrder(TransportKind transport) throws Exception {
        FrameHandler elsewhere = (session, body) -> worker.execute(() -> {
            ReverseEcho.reverse(body);
            session.send(body);
        });
        int frames = 10_000;
        try (RicochetServer server = TestServers.start(TestServers.config(transport).udpPort(ServerConfig.DISABLED).build(),
                elsewhere, registry);
                FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (int i = 0; i < frames; i++) {
                wire.writeBytes(Frames.encode(2, ByteBuffer.allocate(4).putInt(i).array()));
            }
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    client.sendRaw(wire.toByteArray());
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, Executors.newSingleThreadExecutor());
            for (int i = 0; i < frames; i++) {
                assertEquals(Integer.reverseBytes(i), ByteBuffer.wrap(client.receive()).getInt(), "reply " + i);
            }
            writer.get(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aHandlerHearsWhenItsSessionStopsAndStartsTakingReplies(TransportKind transport) throws Exception {
        AtomicInteger unwritable = new AtomicInteger();
        AtomicInteger writableAgain = new AtomicInteger();
        FrameHandler fat = new FrameHandler() {
            @Override
            public void onFrame(FrameSession session, ByteBuf body) {
                body.release();
                // 256 KB for one frame: past the 64 KiB high watermark at once.
                for (int i = 0; i < 64; i++) {
                    ByteBuf reply = session.allocateBody(4000);
                    reply.writeZero(4000);
                    session.send(reply);
                }
            }

            @Override
            public void writabilityChanged(FrameSession session) {
                (session.isWritable() ? writableAgain : unwritable).incrementAndGet();
            }
        };
        try (RicochetServer server = TestServers.start(TestServers.config(transport).udpPort(ServerConfig.DISABLED).build(),
                fat, registry);
                FrameClient client = new FrameClient(server.tcpAddress(), 2, 4096)) {
            client.send(new byte[] {1});
            await().atMost(10, TimeUnit.SECONDS).until(() -> unwritable.get() >= 1);
            for (int i = 0; i < 64; i++) {
                assertEquals(4000, client.receive().length);
            }
            await().atMost(10, TimeUnit.SECONDS).until(() -> writableAgain.get() >= 1 && writableAgain.get() == unwritable.get());
        }
    }

    @Test
    void aFrameClientExchangesRequestsAndRepliesWithoutARegistry() throws Exception {
        try (RicochetServer server = TestServers.echo(TestServers.config(TransportKind.AUTO).udpPort(ServerConfig.DISABLED)
                .build(), registry);
                io.ricochet.transport.client.FrameClient client = io.ricochet.transport.client.FrameClient.builder().build()) {
            io.ricochet.transport.client.FrameClient.FrameExchange echo = client.connect(server.tcpAddress()).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 100; i++) {
                ByteBuf request = io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {(byte) i, 7});
                ByteBuf reply = echo.request(request).get(10, TimeUnit.SECONDS);
                try {
                    assertArrayEquals(new byte[] {7, (byte) i}, io.netty.buffer.ByteBufUtil.getBytes(reply));
                } finally {
                    reply.release();
                }
            }
            assertEquals(1, client.openConnections());
            echo.close();
            await().atMost(10, TimeUnit.SECONDS).until(() -> client.openConnections() == 0);
        }
    }

    @Test
    void aFrameClientConnectFailureFailsTheFuture() throws Exception {
        try (java.net.ServerSocket closed = new java.net.ServerSocket(0);
                io.ricochet.transport.client.FrameClient client = io.ricochet.transport.client.FrameClient.builder().build()) {
            int port = closed.getLocalPort();
            closed.close();
            CompletableFuture<?> connect = client.connect(new java.net.InetSocketAddress("127.0.0.1", port));
            ExecutionException e = assertThrows(
                    ExecutionException.class, () -> connect.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof java.net.ConnectException, e.getCause().toString());
        }
    }

    /** A reply given later is still owed: a half-close once closed at once and lost it. */
    @ParameterizedTest
    @MethodSource("transports")
    void aPeersHalfCloseWaitsForRepliesGivenLater(TransportKind transport) throws Exception {
        try (RicochetServer server = TestServers.start(TestServers.config(transport).udpPort(ServerConfig.DISABLED).build(),
                later(), registry);
                FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            client.send(new byte[] {1, 2, 3});
            client.shutdownOutput();
            assertArrayEquals(new byte[] {3, 2, 1}, client.receive(), "the reply owed at the half-close");
            assertTrue(client.isClosedByServer());
        }
    }

    /** As the half-close: a malformed frame closes only once the replies owed to the frames before it are out. */
    @ParameterizedTest
    @MethodSource("transports")
    void aMalformedFrameWaitsForRepliesGivenLaterToEarlierFrames(TransportKind transport) throws Exception {
        try (RicochetServer server = TestServers.start(TestServers.config(transport).udpPort(ServerConfig.DISABLED).build(),
                later(), registry);
                FrameClient client = new FrameClient(server.tcpAddress(), 2)) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            wire.writeBytes(Frames.encode(2, new byte[] {1, 2, 3}));
            wire.writeBytes(new byte[] {0, 0});
            client.sendRaw(wire.toByteArray());
            assertArrayEquals(new byte[] {3, 2, 1}, client.receive(), "the reply owed to the frame before the bad one");
            assertTrue(client.isClosedByServer());
        }
    }

    /** The idle timeout once closed a connection whose reply was still being computed: it is not idle, it waits. */
    @Test
    void theIdleTimeoutWaitsForRepliesStillOwed() throws Exception {
        CompletableFuture<Runnable> release = new CompletableFuture<>();
        FrameHandler held = (session, body) -> {
            ReverseEcho.reverse(body);
            release.complete(() -> session.send(body));
        };
        ServerConfig config = TestServers.config(TransportKind.AUTO).udpPort(ServerConfig.DISABLED)
                .idleTimeout(java.time.Duration.ofMillis(200)).build();
        try (RicochetServer server = TestServers.start(config, held, registry);
                FrameClient owed = new FrameClient(server.tcpAddress(), 2);
                FrameClient quiet = new FrameClient(server.tcpAddress(), 2)) {
            owed.send(new byte[] {1, 2, 3});
            Runnable reply = release.get(10, TimeUnit.SECONDS);
            // The quiet connection, opened after the other, idles out: the owed one has been idle as long.
            assertTrue(quiet.isClosedByServer(), "a connection owed nothing idles out");
            await().atMost(10, TimeUnit.SECONDS).until(() -> server.activeConnections() == 1);
            worker.execute(reply);
            assertArrayEquals(new byte[] {3, 2, 1}, owed.receive(), "the connection waited for its reply");
            assertTrue(owed.isClosedByServer(), "then idles out as any other");
        }
    }

    /** A request on an exchange whose connection had closed once waited forever. */
    @Test
    void aRequestOnAClosedExchangeFailsAtOnce() throws Exception {
        try (RicochetServer server = TestServers.echo(TestServers.config(TransportKind.AUTO).udpPort(ServerConfig.DISABLED)
                .build(), registry);
                io.ricochet.transport.client.FrameClient client = io.ricochet.transport.client.FrameClient.builder().build()) {
            io.ricochet.transport.client.FrameClient.FrameExchange echo = client.connect(server.tcpAddress()).get(10, TimeUnit.SECONDS);
            echo.close();
            await().atMost(10, TimeUnit.SECONDS).until(() -> client.openConnections() == 0);
            ByteBuf request = io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {1});
            ExecutionException e = assertThrows(
                    ExecutionException.class, () -> echo.request(request).get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof IOException, e.getCause().toString());
            assertEquals(0, request.refCnt(), "the request was released");
        }
    }

    /** Closing a session whose event loop had shut down once threw RejectedExecutionException at the caller. */
    @Test
    void closingASessionAfterItsLoopShutDownDoesNotThrow() throws Exception {
        EventLoops loops = EventLoops.create(TransportKind.AUTO, 1, "gone");
        try (RicochetServer server = TestServers.echo(TestServers.config(TransportKind.AUTO).udpPort(ServerConfig.DISABLED)
                .build(), registry);
                io.ricochet.transport.client.FrameClient client = io.ricochet.transport.client.FrameClient.builder().eventLoops(loops).build()) {
            FrameSession session = client.connect(server.tcpAddress(), new ReverseEcho()).get(10, TimeUnit.SECONDS);
            loops.shutdown().get(20, TimeUnit.SECONDS);
            session.close();
            session.abort();
        } finally {
            loops.close();
        }
    }

    /** A handler whose sessionOpened threw once left the connect future pending forever. */
    @Test
    void aHandlerThatFailsToOpenFailsTheConnect() throws Exception {
        FrameHandler failing = new FrameHandler() {
            @Override
            public void sessionOpened(FrameSession session) {
                throw new IllegalStateException("no thanks");
            }

            @Override
            public void onFrame(FrameSession session, ByteBuf body) {
                body.release();
            }
        };
        try (RicochetServer server = TestServers.echo(TestServers.config(TransportKind.AUTO).udpPort(ServerConfig.DISABLED)
                .build(), registry);
                io.ricochet.transport.client.FrameClient client = io.ricochet.transport.client.FrameClient.builder().build()) {
            CompletableFuture<FrameSession> connect = client.connect(server.tcpAddress(), failing);
            ExecutionException e = assertThrows(
                    ExecutionException.class, () -> connect.get(10, TimeUnit.SECONDS));
            assertEquals("no thanks", e.getCause().getMessage());
            await().atMost(10, TimeUnit.SECONDS).until(() -> client.openConnections() == 0);
        }
    }

    /** Answers {@code 50 ms} after the frame, from a timer: a reply the transport does not see coming. */
    private static FrameHandler later() {
        return (session, body) -> {
            ReverseEcho.reverse(body);
            session.eventLoop().schedule(() -> session.send(body), 50, TimeUnit.MILLISECONDS);
        };
    }

    @org.junit.jupiter.api.AfterEach
    void stopWorker() {
        worker.shutdownNow();
    }
}
