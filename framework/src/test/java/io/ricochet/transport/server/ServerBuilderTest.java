package io.ricochet.transport.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.PipelineCustomizer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The server builder: shared event loops, socket options, the pipeline customizer, async start and stop, meters per server. */
@Timeout(30)
class ServerBuilderTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static ServerConfig tcpOnly() {
        return TestServers.config(TransportKind.AUTO).udpPort(ServerConfig.DISABLED).build();
    }

    private static void assertEcho(java.net.InetSocketAddress address) throws IOException {
        try (FrameClient client = new FrameClient(address, 2)) {
            client.send(new byte[] {1, 2, 3});
            assertArrayEquals(new byte[] {3, 2, 1}, client.receive());
        }
    }

    @Test
    void serversShareEventLoopsThatOutliveThemUnlessTheyOwnTheirStop() throws Exception {
        EventLoops loops = EventLoops.create(TransportKind.AUTO, 2, "shared");
        try {
            RicochetServer a = RicochetServer.builder().config(tcpOnly()).handler(new ReverseEcho())
                    .eventLoops(loops, false).build();
            RicochetServer b = RicochetServer.builder().config(tcpOnly()).handler(new ReverseEcho())
                    .eventLoops(loops, false).build();
            a.start().get(10, TimeUnit.SECONDS);
            b.start().get(10, TimeUnit.SECONDS);
            assertEcho(a.tcpAddress());
            assertEcho(b.tcpAddress());
            a.stop().get(10, TimeUnit.SECONDS);
            assertFalse(loops.group().isShuttingDown(), "a server does not stop loops it was lent");
            assertEcho(b.tcpAddress());
            RicochetServer c = RicochetServer.builder().config(tcpOnly()).handler(new ReverseEcho())
                    .eventLoops(loops, true).build().startAndAwait();
            b.stop().get(10, TimeUnit.SECONDS);
            c.stop().get(10, TimeUnit.SECONDS);
            assertTrue(loops.group().isShuttingDown(), "shutdownOnStop: the last one stops them");
        } finally {
            loops.close();
        }
    }

    @Test
    void childOptionsAndThePipelineCustomizerReachEveryConnection() throws Exception {
        List<Boolean> keepAlive = new CopyOnWriteArrayList<>();
        List<List<String>> names = new CopyOnWriteArrayList<>();
        AtomicInteger bytesSeenFirst = new AtomicInteger();
        PipelineCustomizer customizer = ch -> {
            keepAlive.add(ch.config().getOption(ChannelOption.SO_KEEPALIVE));
            names.add(ch.pipeline().names().stream().filter(n -> n.startsWith("ricochet.")).toList());
            // Where TLS would go: before Ricochet's decoder, seeing the raw bytes.
            ch.pipeline().addFirst("count", new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    bytesSeenFirst.addAndGet(((io.netty.buffer.ByteBuf) msg).readableBytes());
                    ctx.fireChannelRead(msg);
                }
            });
        };
        try (RicochetServer server = RicochetServer.builder().config(tcpOnly()).handler(new ReverseEcho())
                .childOption(ChannelOption.SO_KEEPALIVE, true).pipeline(customizer).build().startAndAwait()) {
            assertEcho(server.tcpAddress());
            assertEquals(List.of(true), keepAlive);
            assertEquals(List.of(List.of(PipelineCustomizer.DECODER, PipelineCustomizer.ENCODER, PipelineCustomizer.IDLE_TIMEOUT,
                    PipelineCustomizer.BACKPRESSURE, PipelineCustomizer.SESSION)), names);
            assertEquals(5, bytesSeenFirst.get());
        }
    }

    @Test
    void aPortThatCannotBeBoundFailsTheStartAndReleasesTheLoops() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            RicochetServer server = RicochetServer.builder()
                    .config(ServerConfig.builder().host("127.0.0.1").tcpPort(taken.getLocalPort()).build())
                    .handler(new ReverseEcho()).meterRegistry(registry).build();
            CompletionException e = assertThrows(CompletionException.class, () -> server.start().join());
            ServerStartException cause = assertInstanceOf(ServerStartException.class, e.getCause());
            assertTrue(cause.getMessage().startsWith("cannot bind tcp 127.0.0.1:" + taken.getLocalPort()), cause.getMessage());
            assertNull(server.tcpAddress());
            assertTrue(registry.getMeters().isEmpty(), "no meters left behind: " + registry.getMeters());
        }
    }

    @Test
    void twoServersOnOneRegistryCountApartAndAStoppedOnesMetersAreGone() throws Exception {
        RicochetServer a = RicochetServer.builder().config(tcpOnly()).handler(new ReverseEcho())
                .meterRegistry(registry).name("a").build().startAndAwait();
        RicochetServer b = RicochetServer.builder().config(tcpOnly()).handler(new ReverseEcho())
                .meterRegistry(registry).name("b").build().startAndAwait();
        try {
            assertEcho(a.tcpAddress());
            assertEcho(a.tcpAddress());
            assertEcho(b.tcpAddress());
            await().atMost(5, TimeUnit.SECONDS).until(() -> framesSent("a") == 2.0 && framesSent("b") == 1.0);
            assertThrows(ServerStartException.class, () -> RicochetServer.builder().config(tcpOnly())
                    .handler(new ReverseEcho()).meterRegistry(registry).name("a").build().startAndAwait(),
                    "a second server under a name in use");
            a.close();
            assertTrue(registry.find(MeterNames.FRAMES_SENT).tag(MeterNames.TAG_NAME, "a").counters().isEmpty());
            assertTrue(registry.find(MeterNames.CONNECTIONS_ACTIVE).tag(MeterNames.TAG_NAME, "a").gauges().isEmpty());
            assertEquals(1.0, framesSent("b"), "the other server's meters stay");
            // A server restarted under the same name counts afresh.
            try (RicochetServer again = RicochetServer.builder().config(tcpOnly()).handler(new ReverseEcho())
                    .meterRegistry(registry).name("a").build().startAndAwait()) {
                assertEcho(again.tcpAddress());
                await().atMost(5, TimeUnit.SECONDS).until(() -> framesSent("a") == 1.0);
            }
        } finally {
            a.close();
            b.close();
        }
    }

    private double framesSent(String name) {
        return Meters.count(registry, MeterNames.FRAMES_SENT, MeterNames.TAG_NAME, name);
    }

    @Test
    void udpIsOffUnlessAskedFor() throws Exception {
        try (RicochetServer server = RicochetServer.builder()
                .config(ServerConfig.builder().host("127.0.0.1").tcpPort(0).build()).handler(new ReverseEcho())
                .build().startAndAwait()) {
            assertTrue(server.tcpAddress().getPort() > 0);
            assertNull(server.udpAddress());
        }
    }
}
