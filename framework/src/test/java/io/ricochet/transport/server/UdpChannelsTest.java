package io.ricochet.transport.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.IoTransport;
import io.ricochet.transport.session.FrameHandler;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several UDP channels on one port, one per event loop: the kernel hashes each peer to one of them, so a peer's
 * session lives on one loop, and the session count and cap are the server's, not a channel's. With 64 peers over two
 * channels, all landing on one would happen by chance once in 2^63 runs.
 */
@Timeout(30)
class UdpChannelsTest {
    private static final int PEERS = 64;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** Each event loop that answered, numbered as first seen; the reply carries the number. */
    private final Map<EventLoop, Integer> loops = new HashMap<>();

    private FrameHandler answersWithItsLoop() {
        return (session, body) -> {
            int loop;
            synchronized (loops) {
                loop = loops.computeIfAbsent(session.eventLoop(), l -> loops.size());
            }
            ByteBuf reply = body.alloc().buffer(1).writeByte(loop);
            body.release();
            session.send(reply);
        };
    }

    private RicochetServer start(TransportKind transport, ServerConfig.Builder config) {
        assumeTrue(IoTransport.isAvailable(transport), transport + " is not available here");
        return TestServers.start(config.transport(transport).tcpPort(ServerConfig.DISABLED).ioThreads(2).build(),
                answersWithItsLoop(), registry);
    }

    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"EPOLL", "IO_URING"})
    void nativeTransportsBindOneChannelPerLoopAndKeepEachPeerOnOne(TransportKind transport) throws IOException {
        try (RicochetServer server = start(transport, TestServers.config(transport))) {
            assertEquals(2, server.udpChannelCount());
            List<DatagramSocket> peers = sockets(PEERS);
            try {
                Set<Integer> reached = new HashSet<>();
                for (DatagramSocket peer : peers) {
                    int first = ask(peer, server.udpAddress());
                    assertEquals(first, ask(peer, server.udpAddress()), "a peer's second datagram, on its loop");
                    assertEquals(first, ask(peer, server.udpAddress()), "and its third");
                    reached.add(first);
                }
                assertEquals(Set.of(0, 1), reached, "peers reached both loops");
                assertEquals(PEERS, server.activeUdpSessions(), "sessions summed over the channels");
                assertEquals((double) PEERS, registry.get(MeterNames.CONNECTIONS_ACTIVE)
                        .tag(MeterNames.TAG_PROTOCOL, "udp").gauge().value());
            } finally {
                peers.forEach(DatagramSocket::close);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"EPOLL", "IO_URING"})
    void theSessionCapHoldsAcrossChannelsAndFreesWithExpiry(TransportKind transport) throws IOException {
        int cap = 10;
        try (RicochetServer server = start(transport, TestServers.config(transport).maxUdpSessions(cap)
                .idleTimeout(Duration.ofSeconds(2)))) {
            List<DatagramSocket> peers = sockets(PEERS);
            try {
                everyPeerSendsOnce(peers, server, 0);
                assertEquals(cap, server.activeUdpSessions(), "one cap across both channels");
                await().atMost(Duration.ofSeconds(10)).until(() -> server.activeUdpSessions() == 0);
                everyPeerSendsOnce(peers, server, PEERS - cap);
                assertEquals(cap, server.activeUdpSessions(), "expired sessions gave their places back");
            } finally {
                peers.forEach(DatagramSocket::close);
            }
        }
    }

    /** Every peer sends one frame; waits until each is either in a session or dropped at the cap. */
    private void everyPeerSendsOnce(List<DatagramSocket> peers, RicochetServer server, int droppedBefore)
            throws IOException {
        byte[] frame = Frames.encode(2, new byte[] {42});
        for (DatagramSocket peer : peers) {
            peer.send(new DatagramPacket(frame, frame.length, server.udpAddress()));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.activeUdpSessions() + droppedAtCap() - droppedBefore
                == PEERS);
    }

    private int droppedAtCap() {
        return (int) Meters.count(registry, MeterNames.DATAGRAMS_DROPPED, MeterNames.TAG_PROTOCOL, "udp",
                MeterNames.TAG_REASON, "session_limit");
    }

    @Test
    void nioAndAnExplicitCountBindAsAsked() {
        try (RicochetServer nio = start(TransportKind.NIO, TestServers.config(TransportKind.NIO))) {
            assertEquals(1, nio.udpChannelCount(), "NIO keeps one channel");
        }
        TransportKind epoll = TransportKind.EPOLL;
        try (RicochetServer one = start(epoll, TestServers.config(epoll).udpChannels(1))) {
            assertEquals(1, one.udpChannelCount());
        }
        try (RicochetServer capped = start(epoll, TestServers.config(epoll).udpChannels(8))) {
            assertEquals(2, capped.udpChannelCount(), "no more channels than event loops");
        }
    }

    private static List<DatagramSocket> sockets(int n) throws IOException {
        List<DatagramSocket> sockets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
            socket.setSoTimeout(5_000);
            sockets.add(socket);
        }
        return sockets;
    }

    /** Sends one frame and returns the number of the loop that answered. */
    private static int ask(DatagramSocket peer, InetSocketAddress server) throws IOException {
        byte[] frame = Frames.encode(2, new byte[] {42});
        peer.send(new DatagramPacket(frame, frame.length, server));
        DatagramPacket reply = new DatagramPacket(new byte[16], 16);
        peer.receive(reply);
        assertEquals(3, reply.getLength(), "a one-byte reply");
        return reply.getData()[2];
    }
}
