package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestCertificates;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.EventLoops;
import java.io.IOException;
import java.net.ConnectException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A server's one life: new, starting, started, stopping, stopped; on loops it was lent, nothing may outlive it. */
@Timeout(30)
class ServerLifecycleTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EventLoops shared = EventLoops.create(TransportKind.AUTO, 1, "lent");

    @AfterEach
    void closeLoops() {
        shared.close();
    }

    private ServerBuilder onSharedLoops(ServerConfig config) {
        return RicochetServer.builder().config(config).handler(new ReverseEcho()).eventLoops(shared, false)
                .meterRegistry(registry);
    }

    private static ServerConfig tcpOnly() {
        return TestServers.config(TransportKind.AUTO).udpPort(ServerConfig.DISABLED).build();
    }

    private static void assertRefused(InetSocketAddress address) {
        assertThrows(ConnectException.class, () -> {
            try (Socket s = new Socket()) {
                s.connect(address, 5_000);
            }
        }, "nothing listens on " + address);
    }

    /** A failed start once closed only what it had not bound: the TCP listener kept accepting on lent loops. */
    @Test
    void aStartThatFailsOnUdpClosesTheTcpListenerItBound() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            ServerConfig config = ServerConfig.builder().host("127.0.0.1").tcpPort(0).udpPort(taken.getLocalPort())
                    .ioThreads(1).build();
            RicochetServer server = onSharedLoops(config).build();
            ExecutionException e = assertThrows(ExecutionException.class, () -> server.start().get(10, TimeUnit.SECONDS));
            assertInstanceOf(ServerStartException.class, e.getCause());
            InetSocketAddress tcp = server.tcpAddress();
            assertTrue(tcp != null && tcp.getPort() > 0, "the TCP bind had succeeded");
            assertRefused(tcp);
            server.terminationFuture().get(10, TimeUnit.SECONDS);
            assertTrue(registry.getMeters().isEmpty(), "meters left behind: " + registry.getMeters());
            assertTrue(!shared.group().isShuttingDown(), "lent loops stay up");
        }
    }

    /** A failed start closed TCP and UDP but left the QUIC socket bound on lent loops. */
    @Test
    void aStartThatFailsOnUdpClosesTheQuicListenerItBound(@TempDir Path dir) throws Exception {
        int quicPort;
        try (DatagramSocket free = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            quicPort = free.getLocalPort();
        }
        try (DatagramSocket taken = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            ServerConfig config = ServerConfig.builder().host("127.0.0.1").tcpPort(ServerConfig.DISABLED)
                    .udpPort(taken.getLocalPort()).quicPort(quicPort).ioThreads(1).build();
            RicochetServer server = onSharedLoops(config).quic(TestCertificates.issue(dir).serverQuic()).build();
            ExecutionException e = assertThrows(ExecutionException.class, () -> server.start().get(10, TimeUnit.SECONDS));
            assertInstanceOf(ServerStartException.class, e.getCause());
            server.terminationFuture().get(10, TimeUnit.SECONDS);
            assertNotNull(server.quicAddress(), "the QUIC bind had succeeded");
            try (DatagramSocket again = new DatagramSocket(quicPort, InetAddress.getLoopbackAddress())) {
                assertEquals(quicPort, again.getLocalPort(), "the QUIC port is free again");
            }
        }
    }

    /** A start after a stop once bound a listener that no later stop could close. */
    @Test
    void aStoppedServerCannotStartAgain() throws Exception {
        RicochetServer server = onSharedLoops(tcpOnly()).build();
        server.stop().get(10, TimeUnit.SECONDS);
        ExecutionException e = assertThrows(ExecutionException.class, () -> server.start().get(10, TimeUnit.SECONDS));
        IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals("start: server is stopped (expected: new; a server starts at most once)", cause.getMessage());
        assertEquals(null, server.tcpAddress(), "nothing bound");
        assertTrue(registry.getMeters().isEmpty(), "meters left behind: " + registry.getMeters());
    }

    @Test
    void aStopDuringTheStartWaitsForTheBindsAndClosesThem() throws Exception {
        RicochetServer server = onSharedLoops(tcpOnly()).build();
        CompletableFuture<RicochetServer> started = server.start();
        server.stop().get(10, TimeUnit.SECONDS);
        started.handle((s, e) -> null).get(10, TimeUnit.SECONDS);
        InetSocketAddress tcp = server.tcpAddress();
        assertNotNull(tcp, "the bind went ahead");
        assertRefused(tcp);
        assertTrue(registry.getMeters().isEmpty(), "meters left behind: " + registry.getMeters());
    }

    @Test
    void aSecondStartFailsAndLeavesTheRunningServerServing() throws Exception {
        try (RicochetServer server = onSharedLoops(tcpOnly()).build().startAndAwait()) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> server.start().get(10, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            try (Socket s = new Socket()) {
                s.connect(server.tcpAddress(), 5_000);
            }
        }
    }

    /** A clash of meter names once threw an IllegalStateException from start(), not the documented start failure. */
    @Test
    void aNameInUseOnTheRegistryFailsTheStartBeforeAnythingIsBound() throws IOException {
        try (RicochetServer first = onSharedLoops(tcpOnly()).name("twin").build().startAndAwait()) {
            RicochetServer second = onSharedLoops(tcpOnly()).name("twin").build();
            ServerStartException e = assertThrows(ServerStartException.class, second::startAndAwait);
            assertTrue(e.getMessage().startsWith("cannot start twin: meters"), e.getMessage());
            assertEquals(null, second.tcpAddress(), "nothing bound");
            try (Socket s = new Socket()) {
                s.connect(first.tcpAddress(), 5_000);
            }
            assertTrue(registry.find(io.ricochet.metrics.MeterNames.CONNECTIONS_ACTIVE).tag("name", "twin").gauge() != null,
                    "the first server's meters stay");
        }
    }
}
