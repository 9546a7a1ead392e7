package io.ricochet.transport.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.TestServers;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(30)
class UdpServerTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    static java.util.stream.Stream<TransportKind> transports() {
        return io.ricochet.testing.Transports.available();
    }

    private RicochetServer start(ServerConfig.Builder config) {
        return TestServers.echo(config.tcpPort(ServerConfig.DISABLED).build(), registry);
    }

    private static DatagramSocket socket(int timeoutMillis) throws IOException {
        DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        socket.setSoTimeout(timeoutMillis);
        return socket;
    }

    private static void send(DatagramSocket socket, InetSocketAddress to, byte[] datagram) throws IOException {
        socket.send(new DatagramPacket(datagram, datagram.length, to));
    }

    private static DatagramPacket receive(DatagramSocket socket) throws IOException {
        DatagramPacket packet = new DatagramPacket(new byte[70_000], 70_000);
        socket.receive(packet);
        return packet;
    }

    @ParameterizedTest
    @MethodSource("transports")
    void answersEachDatagramReversedFromTheBoundAddress(TransportKind transport) throws IOException {
        for (LengthField field : LengthField.values()) {
            try (RicochetServer server = start(TestServers.config(transport).lengthField(field));
                    DatagramSocket socket = socket(5000)) {
                for (int length : new int[] {1, 100, server.config().maxUdpBody()}) {
                    byte[] body = Frames.body(length, length);
                    send(socket, server.udpAddress(), Frames.encode(field.width(), body));
                    DatagramPacket reply = receive(socket);
                    assertEquals(server.udpAddress(), reply.getSocketAddress(), "reply source");
                    byte[] data = Arrays.copyOf(reply.getData(), reply.getLength());
                    assertArrayEquals(Frames.encode(field.width(), Frames.reversed(body)), data);
                }
            }
        }
    }

    /** A burst lands in the socket at once, so epoll and io_uring read it several datagrams a call, one buffer. */
    @ParameterizedTest
    @MethodSource("transports")
    void answersABurstDatagramByDatagram(TransportKind transport) throws IOException {
        int burst = 64;
        try (RicochetServer server = start(TestServers.config(transport));
                DatagramSocket socket = socket(5000)) {
            Set<String> expected = new HashSet<>();
            for (int i = 1; i <= burst; i++) {
                byte[] body = Frames.body(i, i);
                send(socket, server.udpAddress(), Frames.encode(2, body));
                expected.add(Arrays.toString(Frames.encode(2, Frames.reversed(body))));
            }
            Set<String> replies = new HashSet<>();
            for (int i = 0; i < burst; i++) {
                DatagramPacket reply = receive(socket);
                replies.add(Arrays.toString(Arrays.copyOf(reply.getData(), reply.getLength())));
            }
            assertEquals(expected, replies);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void dropsAndCountsMalformedDatagramsAndKeepsServing(TransportKind transport) throws IOException {
        try (RicochetServer server = start(TestServers.config(transport));
                DatagramSocket socket = socket(5000)) {
            InetSocketAddress to = server.udpAddress();
            send(socket, to, new byte[] {5});                                  // runt
            send(socket, to, Frames.header(2, 0));                             // empty
            send(socket, to, Frames.encode(2, Frames.body(4095, 1)));         // too long
            send(socket, to, new byte[] {0, 5, 1, 2});                         // length mismatch
            send(socket, to, Frames.encode(2, new byte[] {1, 2}));             // valid
            DatagramPacket reply = receive(socket);
            assertArrayEquals(Frames.encode(2, new byte[] {2, 1}), Arrays.copyOf(reply.getData(), reply.getLength()),
                    "only the valid datagram is answered");
            await().atMost(5, TimeUnit.SECONDS).until(() -> Meters.count(registry, MeterNames.PROTOCOL_ERRORS) == 4.0);
            for (String kind : new String[] {"runt", "empty", "too_long", "length_mismatch"}) {
                assertEquals(1.0, Meters.protocolErrors(registry, "udp", kind), kind);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void expiresIdleSessions(TransportKind transport) throws IOException {
        try (RicochetServer server = start(TestServers.config(transport).idleTimeout(Duration.ofMillis(200)));
                DatagramSocket socket = socket(5000)) {
            send(socket, server.udpAddress(), Frames.encode(2, new byte[] {1}));
            receive(socket);
            assertEquals(1, server.activeUdpSessions());
            await().atMost(5, TimeUnit.SECONDS).until(() -> server.activeUdpSessions() == 0);
            assertEquals(1.0, Meters.closed(registry, "udp", "idle"));
            assertEquals(1.0, Meters.count(registry, MeterNames.CONNECTIONS_OPENED, MeterNames.TAG_PROTOCOL, "udp"));
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void capsSessionsAndIgnoresNewPeersPastTheCap(TransportKind transport) throws IOException {
        try (RicochetServer server = start(TestServers.config(transport).maxUdpSessions(1));
                DatagramSocket first = socket(5000);
                DatagramSocket second = socket(500)) {
            send(first, server.udpAddress(), Frames.encode(2, new byte[] {1}));
            receive(first);
            send(second, server.udpAddress(), Frames.encode(2, new byte[] {2}));
            assertThrows(SocketTimeoutException.class, () -> receive(second));
            assertEquals(1.0, Meters.count(registry, MeterNames.DATAGRAMS_DROPPED, MeterNames.TAG_PROTOCOL, "udp",
                    MeterNames.TAG_REASON, "session_limit"));
            assertEquals(0.0, Meters.closed(registry, "udp", "limit"), "no session closed: a datagram was dropped");
            send(first, server.udpAddress(), Frames.encode(2, new byte[] {3}));
            receive(first);
            assertEquals(2.0, Meters.count(registry, MeterNames.FRAMES_SENT, MeterNames.TAG_PROTOCOL, "udp"));
        }
    }

    /** A handler factory that failed once kept the session's place in the cap for good. */
    @ParameterizedTest
    @MethodSource("transports")
    void aHandlerFactoryThatFailsGivesTheSessionsPlaceBack(TransportKind transport) throws IOException {
        java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        ServerConfig config = TestServers.config(transport).tcpPort(ServerConfig.DISABLED).maxUdpSessions(1).build();
        try (RicochetServer server = RicochetServer.builder().config(config).meterRegistry(registry)
                        .handlerPerSession(() -> {
                            if (failed.compareAndSet(false, true)) {
                                throw new IllegalStateException("no handler this time");
                            }
                            return new io.ricochet.testing.ReverseEcho();
                        }).build().startAndAwait();
                DatagramSocket first = socket(500);
                DatagramSocket second = socket(5000)) {
            send(first, server.udpAddress(), Frames.encode(2, new byte[] {1}));
            assertThrows(SocketTimeoutException.class, () -> receive(first));
            send(second, server.udpAddress(), Frames.encode(2, new byte[] {1, 2}));
            DatagramPacket reply = receive(second);
            assertArrayEquals(Frames.encode(2, new byte[] {2, 1}), Arrays.copyOf(reply.getData(), reply.getLength()),
                    "the one place was free for the next peer");
        }
    }
}
