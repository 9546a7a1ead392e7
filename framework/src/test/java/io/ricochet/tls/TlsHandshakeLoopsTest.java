package io.ricochet.tls;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.Future;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestCertificates;
import io.ricochet.testing.TestServers;
import io.ricochet.testing.Transports;
import io.ricochet.transport.client.FrameClient;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A TLS listener's handshakes run on loops of their own and its sessions on the server's I/O loops (issue 45, fault
 * 8: a ClientHello flood must not take the loops that serve sessions), with the connection moved between them when
 * its handshake succeeds; and one source's handshakes at once are bounded, the rest waiting rather than refused.
 */
@Timeout(60)
class TlsHandshakeLoopsTest {
    @TempDir
    static Path dir;
    static TestCertificates certificates;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void certificates() throws IOException {
        certificates = TestCertificates.issue(dir);
    }

    static Stream<Arguments> transportsAndProviders() {
        return Transports.available().flatMap(kind -> TlsServerTest.providers().map(p -> Arguments.of(kind, p)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("transportsAndProviders")
    void sessionsRunOnTheIoLoopsFromTheirFirstEventAndNothingSentWithTheHandshakeIsLost(TransportKind transport,
            TlsProvider provider) throws Exception {
        Set<String> sessionThreads = ConcurrentHashMap.newKeySet();
        FrameHandler recording = new FrameHandler() {
            @Override
            public void sessionOpened(FrameSession session) {
                sessionThreads.add(Thread.currentThread().getName());
            }

            @Override
            public void onFrame(FrameSession session, ByteBuf body) {
                sessionThreads.add(Thread.currentThread().getName());
                ReverseEcho.reverse(body);
                session.send(body);
            }
        };
        int connections = 20;
        int frames = 16;
        try (RicochetServer s = start(transport, provider, recording, 64);
             FrameClient c = client(transport)) {
            List<CompletableFuture<List<byte[]>>> replies = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                // Every frame is written the moment the handshake ends, so some ride in with the client's Finished.
                replies.add(pipelined(c, s.tcpAddress(), null, frames, i));
            }
            for (int i = 0; i < connections; i++) {
                List<byte[]> got = replies.get(i).get(30, TimeUnit.SECONDS);
                for (int f = 0; f < frames; f++) {
                    assertArrayEquals(Frames.reversed(Frames.body(f + 1, i * 1000L + f)), got.get(f),
                            "connection " + i + " frame " + f);
                }
            }
            assertFalse(sessionThreads.isEmpty());
            for (String thread : sessionThreads) {
                assertTrue(thread.startsWith("ricochet-io"), "a session ran on " + thread + " (" + sessionThreads + ")");
            }
            if (transport != TransportKind.IO_URING) {
                // On io_uring a connection is not moved between loops (TcpBinding says why).
                assertTrue(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().contains("-tls-")),
                        "no handshake loop thread");
            }
            assertEquals(0.0, Meters.protocolErrors(registry, "tcp", "tls"));
            await().atMost(10, TimeUnit.SECONDS).until(() -> gauge(MeterNames.CONNECTIONS_ACTIVE) == 0);
        }
    }

    @Test
    void aSourceAtItsTurnsWaitsWithoutBeingRefusedWhileAnotherSourceHandshakes() throws Exception {
        try (RicochetServer s = start(TransportKind.AUTO, TlsProvider.AUTO, new ReverseEcho(), 2);
             FrameClient c = client(TransportKind.AUTO);
             Socket silent1 = connectFrom("127.0.0.1", s.tcpAddress());
             Socket silent2 = connectFrom("127.0.0.1", s.tcpAddress())) {
            // Two silent connections hold 127.0.0.1's two turns: its next connection waits, reading nothing.
            await().atMost(10, TimeUnit.SECONDS).until(() -> gauge(MeterNames.TLS_HANDSHAKES_IN_PROGRESS) == 2);
            CompletableFuture<List<byte[]>> waiting = pipelined(c, s.tcpAddress(), "127.0.0.1", 1, 7);
            await().atMost(10, TimeUnit.SECONDS).until(() -> gauge(MeterNames.TLS_HANDSHAKES_WAITING) == 1);
            // Another source is not behind it.
            List<byte[]> other = pipelined(c, s.tcpAddress(), "127.0.0.2", 1, 8).get(20, TimeUnit.SECONDS);
            assertArrayEquals(Frames.reversed(Frames.body(1, 8000)), other.get(0));
            assertFalse(waiting.isDone(), "127.0.0.1's third handshake ran past its source's two turns");
            // A turn given back is the waiting connection's: served, not refused.
            silent1.close();
            List<byte[]> got = waiting.get(20, TimeUnit.SECONDS);
            assertArrayEquals(Frames.reversed(Frames.body(1, 7000)), got.get(0));
            assertEquals(0.0, gauge(MeterNames.TLS_HANDSHAKES_WAITING));
            // Closes before a handshake ended (the silent peers) are counted as those after it are.
            silent2.close();
            await().atMost(10, TimeUnit.SECONDS).until(() -> gauge(MeterNames.CONNECTIONS_ACTIVE) == 0);
            assertEquals(0.0, gauge(MeterNames.TLS_HANDSHAKES_IN_PROGRESS));
            // Two silent peers, closed before any session of theirs existed, and two served connections.
            assertEquals(4.0, Meters.count(registry, MeterNames.CONNECTIONS_OPENED));
            await().atMost(10, TimeUnit.SECONDS).until(() -> Meters.count(registry, MeterNames.CONNECTIONS_CLOSED) == 4.0);
        }
    }

    /**
     * A peer that ends its input before its handshake ends can never finish it: closed at once, as a peer's close,
     * whether it held a turn or waited for one (epoll reads a peer's last bytes with its FIN, asked or not), and its
     * address's turns are free again; not left to the handshake timeout holding a turn.
     */
    @ParameterizedTest
    @MethodSource("io.ricochet.testing.Transports#available")
    void aPeerThatEndsItsInputMidHandshakeIsClosedAtOnceAndGivesItsTurnBack(TransportKind transport) throws Exception {
        try (RicochetServer s = start(transport, TlsProvider.AUTO, new ReverseEcho(), 1);
             Socket holder = connectFrom("127.0.0.1", s.tcpAddress());
             Socket waiter = connectFrom("127.0.0.1", s.tcpAddress())) {
            await().atMost(10, TimeUnit.SECONDS).until(() -> gauge(MeterNames.TLS_HANDSHAKES_WAITING) == 1);
            long started = System.nanoTime();
            waiter.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3});
            waiter.shutdownOutput();
            holder.shutdownOutput();
            assertEquals(-1, waiter.getInputStream().read(), "the server closes the waiting peer");
            assertEquals(-1, holder.getInputStream().read(), "and the one that held the turn");
            await().atMost(10, TimeUnit.SECONDS).until(() -> Meters.closed(registry, "tcp", "peer") == 2.0);
            assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5),
                    "closed at the FIN, not at the 10 s handshake timeout");
            assertEquals(0.0, gauge(MeterNames.TLS_HANDSHAKES_IN_PROGRESS));
            assertEquals(0.0, gauge(MeterNames.TLS_HANDSHAKES_WAITING));
        }
    }

    /**
     * A client that writes its request and ends its input at once after its handshake: whatever arrives before the
     * connection reaches its I/O loop, the end of input included, reaches the session there, which answers and closes.
     */
    @ParameterizedTest
    @MethodSource("io.ricochet.testing.Transports#available")
    void aRequestAndAFinRightAfterTheHandshakeAreAnsweredAndClosed(TransportKind transport) throws Exception {
        try (RicochetServer s = start(transport, TlsProvider.AUTO, new ReverseEcho(), 64);
             FrameClient c = client(transport)) {
            for (int round = 0; round < 10; round++) {
                CompletableFuture<List<byte[]>> replies = new CompletableFuture<>();
                List<byte[]> got = new ArrayList<>();
                Channel ch = c.connect(s.tcpAddress(), null, null, new SimpleChannelInboundHandler<ByteBuf>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf body) {
                        got.add(ByteBufUtil.getBytes(body));
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        replies.complete(got);
                    }
                }).syncUninterruptibly().channel();
                long seed = round;
                FrameClient.handshakeFuture(ch).addListener(done -> {
                    ch.write(Unpooled.wrappedBuffer(Frames.encode(2, Frames.body(3, seed))));
                    ch.writeAndFlush(Unpooled.wrappedBuffer(Frames.encode(2, Frames.body(4, seed))))
                            .addListener(w -> ((DuplexChannel) ch).shutdownOutput());
                });
                // Closed by the server well before its 30 s idle timeout: the end of input reached the session.
                List<byte[]> answered = replies.get(10, TimeUnit.SECONDS);
                assertEquals(2, answered.size(), "round " + round);
                assertArrayEquals(Frames.reversed(Frames.body(4, seed)), answered.get(1));
            }
        }
    }

    private RicochetServer start(TransportKind transport, TlsProvider provider, FrameHandler handler,
            int perAddress) {
        Tls tls = ServerTlsConfig.builder(certificates.server().certificate(), certificates.server().privateKey())
                .provider(provider).handshakesPerAddress(perAddress).build().build();
        return RicochetServer.builder().config(TestServers.config(transport).build()).handler(handler)
                .meterRegistry(registry).tls(tls).build().startAndAwait();
    }

    private static FrameClient client(TransportKind transport) {
        return FrameClient.builder().transport(transport, 1)
                .tls(ClientTlsConfig.builder().trustedCa(certificates.caCertificate()).build().build()).build();
    }

    /**
     * A connection (from {@code local}, or any address) that writes {@code frames} frames the moment its handshake
     * ends, and completes with their replies.
     */
    private static CompletableFuture<List<byte[]>> pipelined(FrameClient c, InetSocketAddress target, String local,
            int frames, long seed) {
        CompletableFuture<List<byte[]>> replies = new CompletableFuture<>();
        List<byte[]> got = new ArrayList<>();
        Channel ch = c.connect(target, local == null ? null : new InetSocketAddress(local, 0), null,
                new SimpleChannelInboundHandler<ByteBuf>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf body) {
                        got.add(ByteBufUtil.getBytes(body));
                        if (got.size() == frames) {
                            replies.complete(got);
                            ctx.close();
                        }
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        replies.completeExceptionally(new IOException("closed after " + got.size() + " replies"));
                    }
                }).syncUninterruptibly().channel();
        Future<Channel> handshake = FrameClient.handshakeFuture(ch);
        handshake.addListener(done -> {
            if (!done.isSuccess()) {
                replies.completeExceptionally(done.cause());
                return;
            }
            for (int f = 0; f < frames; f++) {
                ch.write(Unpooled.wrappedBuffer(Frames.encode(2, Frames.body(f + 1, seed * 1000 + f))));
            }
            ch.flush();
        });
        return replies;
    }

    private static Socket connectFrom(String host, InetSocketAddress target) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(host, 0));
        socket.connect(target, 5000);
        return socket;
    }

    private double gauge(String name) {
        return registry.find(name).gauges().stream().mapToDouble(Gauge::value).sum();
    }
}
