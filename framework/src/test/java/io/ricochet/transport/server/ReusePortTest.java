package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MetricsEndpoint;
import io.ricochet.testing.TestCertificates;
import io.ricochet.testing.TestServers;
import io.ricochet.testing.Transports;
import io.ricochet.transport.IoTransport;
import io.ricochet.transport.session.FrameHandler;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two servers bound to one port with {@code reusePort}: the kernel spreads new connections and UDP peers over both.
 * Each answers with its own name, so a peer can tell which one it reached; 64 peers all reaching one would happen by
 * chance once in 2^63 runs. Without {@code reusePort} no listener can be bound a second time.
 */
@Timeout(30)
class ReusePortTest {
    private static final int PEERS = 64;

    /** Answers every frame with one byte, its own name. */
    private static FrameHandler named(char name) {
        return (session, body) -> {
            ByteBuf reply = body.alloc().buffer(1).writeByte(name);
            body.release();
            session.send(reply);
        };
    }

    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"NIO", "EPOLL", "IO_URING"})
    void twoServersOnOnePortBothReceivePeers(TransportKind transport) throws Exception {
        assumeTrue(IoTransport.isAvailable(transport), transport + " is not available here");
        ServerConfig first = TestServers.config(transport).reusePort(true).build();
        try (RicochetServer a = TestServers.start(first, named('A'), new SimpleMeterRegistry())) {
            ServerConfig same = first.toBuilder().tcpPort(a.tcpAddress().getPort()).udpPort(a.udpAddress().getPort())
                    .build();
            try (RicochetServer b = TestServers.start(same, named('B'), new SimpleMeterRegistry())) {
                Set<Character> tcp = new HashSet<>();
                Set<Character> udp = new HashSet<>();
                for (int i = 0; i < PEERS; i++) {
                    tcp.add(overTcp(a.tcpAddress().getPort()));
                    udp.add(overUdp(a.udpAddress().getPort()));
                }
                assertEquals(Set.of('A', 'B'), tcp, "connections reached both servers");
                assertEquals(Set.of('A', 'B'), udp, "UDP peers reached both servers");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"NIO", "EPOLL", "IO_URING"})
    void withoutItTheSecondServerCannotBind(TransportKind transport) {
        assumeTrue(IoTransport.isAvailable(transport), transport + " is not available here");
        ServerConfig first = TestServers.config(transport).udpPort(ServerConfig.DISABLED).build();
        try (RicochetServer a = TestServers.start(first, named('A'), new SimpleMeterRegistry())) {
            ServerConfig same = first.toBuilder().tcpPort(a.tcpAddress().getPort()).build();
            ServerStartException e = assertThrows(ServerStartException.class,
                    () -> TestServers.start(same, named('B'), new SimpleMeterRegistry()).close());
            assertTrue(e.getMessage().startsWith("cannot bind tcp 127.0.0.1:" + a.tcpAddress().getPort()),
                    e.getMessage());
        }
    }

    static Stream<Arguments> transportsAndUdpChannels() {
        return Transports.available().flatMap(transport -> Stream.of(Arguments.of(transport, 1),
                Arguments.of(transport, 2)));
    }

    /**
     * A second echo-server without {@code --reuse-port} once bound the UDP port the first held and took a share of
     * its peers: the first bound its UDP channels with {@code SO_REUSEPORT} whenever it had several.
     */
    @ParameterizedTest(name = "{0}, {1} UDP channel(s)")
    @MethodSource("transportsAndUdpChannels")
    void withoutItTheSecondServerCannotBindTheUdpPortHoweverManyChannelsHoldIt(TransportKind transport, int channels)
            throws Exception {
        ServerConfig first = TestServers.config(transport).tcpPort(ServerConfig.DISABLED).ioThreads(2)
                .udpChannels(channels).build();
        try (RicochetServer a = TestServers.start(first, named('A'), new SimpleMeterRegistry())) {
            assertEquals(channels, a.udpChannelCount());
            int port = a.udpAddress().getPort();
            ServerConfig same = first.toBuilder().udpPort(port).build();
            ServerStartException e = assertThrows(ServerStartException.class,
                    () -> TestServers.start(same, named('B'), new SimpleMeterRegistry()).close());
            assertTrue(e.getMessage().startsWith("cannot bind udp 127.0.0.1:" + port), e.getMessage());
            Set<Character> udp = new HashSet<>();
            for (int i = 0; i < PEERS; i++) {
                udp.add(overUdp(port));
            }
            assertEquals(Set.of('A'), udp, "every peer still reaches the first server");
        }
    }

    @ParameterizedTest
    @MethodSource("io.ricochet.testing.Transports#available")
    void withoutItTheSecondServerCannotBindTheQuicPort(TransportKind transport, @TempDir Path dir) throws IOException {
        QuicSslContext tls = TestCertificates.issue(dir).serverQuic();
        ServerConfig first = TestServers.config(transport).tcpPort(ServerConfig.DISABLED).udpPort(ServerConfig.DISABLED)
                .quicPort(0).build();
        try (RicochetServer a = RicochetServer.builder().config(first).handler(named('A')).quic(tls).build()
                .startAndAwait()) {
            int port = a.quicAddress().getPort();
            RicochetServer b = RicochetServer.builder().config(first.toBuilder().quicPort(port).build())
                    .handler(named('B')).quic(tls).build();
            ServerStartException e = assertThrows(ServerStartException.class, b::startAndAwait);
            assertTrue(e.getMessage().startsWith("cannot bind quic 127.0.0.1:" + port), e.getMessage());
        }
    }

    @Test
    void theMetricsPortCannotBeBoundTwice() {
        try (MetricsEndpoint a = MetricsEndpoint.start("127.0.0.1", 0,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
            int port = a.address().getPort();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> MetricsEndpoint.start("127.0.0.1",
                    port, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).close());
            assertTrue(e.getMessage().startsWith("cannot bind metrics 127.0.0.1:" + port), e.getMessage());
        }
    }

    private static char overTcp(int port) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeShort(1);
            out.writeByte('x');
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(1, in.readUnsignedShort());
            return (char) in.readUnsignedByte();
        }
    }

    private static char overUdp(int port) throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            s.setSoTimeout(5_000);
            byte[] frame = {0, 1, 'x'};
            s.send(new DatagramPacket(frame, frame.length, InetAddress.getLoopbackAddress(), port));
            DatagramPacket reply = new DatagramPacket(new byte[16], 16);
            s.receive(reply);
            assertEquals(3, reply.getLength());
            return (char) reply.getData()[2];
        }
    }
}
