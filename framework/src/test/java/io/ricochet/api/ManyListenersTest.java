package io.ricochet.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MeterNames;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.rpc.MethodDescriptor;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcMethod;
import io.ricochet.rpc.RpcMetrics;
import io.ricochet.rpc.RpcService;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestCertificates;
import io.ricochet.testing.TestServers;
import io.ricochet.tls.ClientTlsConfig;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.client.FrameClient;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.ListenerService;
import io.ricochet.transport.server.RicochetServer;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** One server with a listener of every kind: each serves, one stop drains them all, one registry counts them. */
@Timeout(60)
class ManyListenersTest {
    private static final MethodDescriptor<StringValue, Int64Value> LENGTH = MethodDescriptor.of("text.length",
            StringValue.getDefaultInstance(), Int64Value.getDefaultInstance());
    private static final MethodDescriptor<StringValue, Int64Value> HELD = MethodDescriptor.of("text.held",
            StringValue.getDefaultInstance(), Int64Value.getDefaultInstance());
    private static final NoiseKeyPair KEY = NoiseKeyPair.generate();

    @TempDir
    Path dir;

    @Test
    void oneServerServesCountsAndDrainsEveryKindOfListener() throws Exception {
        TestCertificates certificates = TestCertificates.issue(dir);
        ServerTlsConfig serverTls = ServerTlsConfig.builder(certificates.server().certificate(),
                certificates.server().privateKey()).build();
        CompletableFuture<Int64Value> held = new CompletableFuture<>();
        RpcDispatcher methods = new RpcDispatcher();
        methods.register(LENGTH, RpcMethod.sync(text -> Int64Value.of(text.getValue().length())));
        methods.register(HELD, (text, context) -> held);
        RpcService rpc = RpcService.builder().dispatcher(methods).build();
        Listener tcp = Listener.tcp(0);
        Listener udp = Listener.udp(0);
        Listener tls = Listener.tcp(0).tls(serverTls.build());
        Listener noise = Listener.tcp(0).noise(ServerNoiseConfig.of(KEY));
        Listener quic = Listener.quic(0, certificates.serverQuic());
        Listener rpcPort = rpc.listener(0).idleTimeout(Duration.ofMinutes(5));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RicochetServer server = RicochetServer.builder()
                .config(TestServers.config(TransportKind.AUTO).build())
                .handler(new ReverseEcho())
                .listen(tcp).listen(udp).listen(tls).listen(noise).listen(quic).listen(rpcPort)
                .meterRegistry(registry).name("one")
                .build().startAndAwait();
        List<Listener> all = List.of(tcp, udp, tls, noise, quic, rpcPort);
        assertEquals(all, server.listeners());
        assertEquals(server.tcpAddress(), server.address(tcp), "the first TCP listener is the server's TCP address");
        try (FrameClient plain = FrameClient.builder().build();
                FrameClient overTls = FrameClient.builder()
                        .tls(ClientTlsConfig.builder().trustedCa(certificates.caCertificate()).build().build()).build();
                FrameClient overNoise = FrameClient.builder().noise(ClientNoiseConfig.builder(KEY.publicKey()).build())
                        .build();
                FrameClient overQuic = FrameClient.builder().quic(ClientTlsConfig.builder()
                        .trustedCa(certificates.caCertificate()).build().buildQuic(Protocol.QUIC_ALPN)).build();
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            assertEchoes(plain.connect(server.address(tcp)).get(10, TimeUnit.SECONDS));
            assertEchoes(overTls.connect(server.address(tls)).get(10, TimeUnit.SECONDS));
            assertEchoes(overNoise.connect(server.address(noise)).get(10, TimeUnit.SECONDS));
            assertEchoes(overQuic.connect(server.address(quic)).get(10, TimeUnit.SECONDS));
            assertDatagramEchoes(server.address(udp));
            RpcClient client = clients.connect(server.address(rpcPort)).get(10, TimeUnit.SECONDS);
            assertEquals(5, client.call(LENGTH, StringValue.of("hello")).get(10, TimeUnit.SECONDS).getValue());

            for (String protocol : List.of("tcp", "udp", "tls", "noise", "quic")) {
                assertEquals(1.0, Meters.count(registry, MeterNames.FRAMES_SENT, MeterNames.TAG_NAME, "one",
                        MeterNames.TAG_PROTOCOL, protocol), protocol + " counts into the server's one registry");
            }
            // The RPC listener's frames are its envelopes: the answer, and the connection's own.
            assertTrue(Meters.count(registry, MeterNames.FRAMES_SENT, MeterNames.TAG_NAME, "one",
                    MeterNames.TAG_PROTOCOL, "rpc") >= 1.0);
            // Timed once the answer is written, so perhaps just after the client has it.
            await().atMost(10, TimeUnit.SECONDS).until(() -> registry.get(RpcMetrics.SERVER_REQUESTS)
                    .tag(MeterNames.TAG_NAME, "one").tag("method", LENGTH.name()).tag("status", "OK").timer().count() == 1);

            // A call still being served when the stop begins is answered before its connection closes.
            CompletableFuture<Int64Value> owed = client.call(HELD, StringValue.of("x"));
            await().atMost(10, TimeUnit.SECONDS).until(() -> registry.get(RpcMetrics.SERVER_IN_FLIGHT)
                    .tag(MeterNames.TAG_NAME, "one").gauge().value() == 1.0);
            CompletableFuture<Void> stopped = server.stop();
            assertFalse(stopped.isDone(), "the stop waits for the call it owes");
            held.complete(Int64Value.of(42));
            assertEquals(42, owed.get(10, TimeUnit.SECONDS).getValue());
            stopped.get(20, TimeUnit.SECONDS);
        }
        for (Listener listener : List.of(tcp, tls, noise, rpcPort)) {
            InetSocketAddress address = server.address(listener);
            assertThrows(IOException.class, () -> new Socket(address.getAddress(), address.getPort()).close(),
                    listener + " is closed");
        }
        List<Meter> left = registry.getMeters().stream()
                .filter(m -> "one".equals(m.getId().getTag(MeterNames.TAG_NAME))).toList();
        assertTrue(left.isEmpty(), "the stop removes every listener's meters: " + left);
    }

    /** Regression: the service's start kept its meters in fields, so a second listener of one value overwrote them. */
    @Test
    void oneRpcListenerValueServesTwoListenersAndTwoServersEachWithMetersOfItsOwn() {
        Listener rpc = RpcService.builder().dispatcher(new RpcDispatcher()).build().listener(0);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RicochetServer both = RicochetServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .listen(rpc.name("a")).listen(rpc.name("b")).meterRegistry(registry).build().startAndAwait();
        RicochetServer other = RicochetServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .listen(rpc.name("c")).meterRegistry(registry).build().startAndAwait();
        assertEquals(3, registry.find(RpcMetrics.SERVER_IN_FLIGHT).gauges().size());
        both.close();
        assertEquals(List.of("c"), registry.find(RpcMetrics.SERVER_IN_FLIGHT).gauges().stream()
                .map(g -> g.getId().getTag(MeterNames.TAG_NAME)).toList(), "a and b removed, c untouched");
        other.close();
        assertTrue(registry.find(RpcMetrics.SERVER_IN_FLIGHT).gauges().isEmpty());
    }

    /** Regression: a service whose stop threw left the server unterminated, its loops and other meters held. */
    @Test
    void aServiceThatFailsToStopDoesNotKeepTheServerFromTerminating() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Listener failing = Listener.tcp(0).service((r, name) -> ListenerService.started(ReverseEcho::new, () -> {
            throw new IllegalStateException("stop failed on purpose");
        }));
        RicochetServer server = RicochetServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .handler(new ReverseEcho()).listen(failing).listen(Listener.udp(0)).meterRegistry(registry).name("f")
                .build().startAndAwait();
        server.stop().get(20, TimeUnit.SECONDS);
        assertTrue(server.terminationFuture().isDone());
        assertTrue(registry.getMeters().isEmpty(), "every listener's meters removed: " + registry.getMeters());
    }

    /** Regression: an Error during the start (a native that will not link) left the server starting for good. */
    @Test
    void anErrorDuringTheStartFailsItAndReleasesWhatItTook() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Listener broken = Listener.tcp(0).name("broken").service((r, name) -> {
            throw new LinkageError("no native here");
        });
        RicochetServer server = RicochetServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .handler(new ReverseEcho()).listen(Listener.tcp(0)).listen(broken).meterRegistry(registry).build();
        java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> server.start().get(20, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof LinkageError, String.valueOf(e.getCause()));
        server.stop().get(20, TimeUnit.SECONDS);
        assertTrue(registry.getMeters().isEmpty(), "nothing left registered: " + registry.getMeters());
    }

    @Test
    void listenersThatMeterAlikeAreRefusedAtBuild() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RicochetServer.builder()
                .handler(new ReverseEcho()).listen(Listener.tcp(0)).listen(Listener.tcp(0)).build());
        assertTrue(e.getMessage().contains("protocol tcp"), e.getMessage());
        RicochetServer.builder().handler(new ReverseEcho()).listen(Listener.tcp(0))
                .listen(Listener.tcp(0).name("second")).build().close();
    }

    @Test
    void aListenerWithoutAHandlerIsRefusedAtBuild() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RicochetServer.builder().listen(Listener.udp(0)).build());
        assertTrue(e.getMessage().startsWith("handler: null for udp 0"), e.getMessage());
    }

    @Test
    void securityAppliesToTcpListenersOnly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Listener.udp(0).noise(ServerNoiseConfig.of(KEY)));
        assertEquals("noise on a udp listener (expected: a tcp one)", e.getMessage());
    }

    private static void assertEchoes(FrameClient.FrameExchange exchange) throws Exception {
        byte[] sent = {1, 2, 3};
        ByteBuf reply = exchange.request(Unpooled.wrappedBuffer(sent)).get(10, TimeUnit.SECONDS);
        try {
            assertArrayEquals(Frames.reversed(sent), ByteBufUtil.getBytes(reply));
        } finally {
            reply.release();
        }
    }

    private static void assertDatagramEchoes(InetSocketAddress to) throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            socket.setSoTimeout(10_000);
            byte[] datagram = Frames.encode(2, new byte[] {1, 2, 3});
            socket.send(new DatagramPacket(datagram, datagram.length, to));
            byte[] reply = new byte[16];
            DatagramPacket packet = new DatagramPacket(reply, reply.length);
            socket.receive(packet);
            assertEquals(5, packet.getLength());
            assertArrayEquals(Frames.encode(2, new byte[] {3, 2, 1}), java.util.Arrays.copyOf(reply, 5));
        }
    }
}
