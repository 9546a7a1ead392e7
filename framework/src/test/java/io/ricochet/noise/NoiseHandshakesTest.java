package io.ricochet.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.HandshakeCounters;
import io.ricochet.metrics.HandshakeMeters;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A server's handshakes handed to a queue the test runs by hand: what is shed is shed before it is queued (so before
 * any key agreement), and what waits is answered, or dropped unworked when its connection closed first.
 */
class NoiseHandshakesTest {
    private static final NoiseKeyPair KEY = NoiseKeyPair.generate();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SimpleMeterRegistry transport = new SimpleMeterRegistry();
    private final ConnectionStats stats = new ConnectionStats(Meters.tcpMeters(transport));
    private final Queue<Runnable> queued = new ArrayDeque<>();
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void closeAll() {
        for (EmbeddedChannel ch : channels) {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void firstMessagesPastEitherBoundAreShedBeforeAnyWork() {
        HandshakeMeters meters = HandshakeMeters.register(registry, "test", "noise", "nio", () -> 0);
        NoiseHandshakes handshakes = NoiseHandshakes.on(ServerNoiseConfig.builder(KEY).maxHandshakes(3)
                .maxHandshakesPerAddress(2).build(), meters, queued::add);
        String[] sources = {"10.0.0.1", "10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.2"};
        EmbeddedChannel[] servers = new EmbeddedChannel[sources.length];
        NoiseHandler[] handlers = new NoiseHandler[sources.length];
        ConnectionStats[] connections = new ConnectionStats[sources.length];
        EmbeddedChannel[] clients = new EmbeddedChannel[sources.length];
        for (int i = 0; i < sources.length; i++) {
            connections[i] = new ConnectionStats(Meters.tcpMeters(new SimpleMeterRegistry()));
            handlers[i] = NoiseHandler.server(handshakes, 2, connections[i]);
            servers[i] = server(handlers[i], sources[i]);
            clients[i] = client();
            carry(clients[i], servers[i]);
        }
        assertEquals(3, queued.size(), "shed handshakes were queued");
        assertEquals(3, handshakes.inProgress());
        assertFalse(servers[2].isOpen(), "over its address's bound, yet open");
        assertFalse(servers[4].isOpen(), "over the total bound, yet open");
        assertEquals(1.0, shed("max_handshakes_per_address"));
        assertEquals(1.0, shed("max_handshakes"));
        assertInstanceOf(NoiseException.class, handlers[2].handshakeFuture().cause());
        assertEquals(CloseReason.LIMIT, connections[2].closeReason());
        assertEquals(CloseReason.LIMIT, connections[4].closeReason());

        runQueued();
        assertEquals(0, handshakes.inProgress());
        for (int i : new int[] {0, 1, 3}) {
            assertTrue(handlers[i].handshakeFuture().isSuccess(), "server handshake " + i);
            carry(servers[i], clients[i]);
            assertTrue(clients[i].pipeline().get(NoiseHandler.class).handshakeFuture().isSuccess(), "client handshake " + i);
        }
        // The places are back: the next one from the address that was full gets in.
        EmbeddedChannel again = server(NoiseHandler.server(handshakes, 2, stats), "10.0.0.1");
        carry(client(), again);
        assertEquals(1, queued.size());
        assertTrue(again.isOpen());
        meters.close();
    }

    @Test
    void aHandshakeWhoseConnectionClosedWhileQueuedIsDroppedUnworked() {
        NoiseHandshakes handshakes = NoiseHandshakes.on(ServerNoiseConfig.of(KEY), HandshakeCounters.NONE, queued::add);
        NoiseHandler handler = NoiseHandler.server(handshakes, 2, stats);
        EmbeddedChannel server = server(handler, "10.0.0.1");
        carry(client(), server);
        assertEquals(1, handshakes.inProgress());
        server.close();
        runQueued();
        assertEquals(0, handshakes.inProgress(), "its place was not given back");
        assertFalse(handler.handshakeFuture().isSuccess(), "answered a closed connection");
        assertNull(server.readOutbound(), "answered a closed connection");
    }

    /** A client cannot have keys before the answer: anything more it sends meanwhile ends the connection, unbuffered. */
    @Test
    void bytesBeforeTheAnswerCloseTheConnection() {
        NoiseHandshakes handshakes = NoiseHandshakes.on(ServerNoiseConfig.of(KEY), HandshakeCounters.NONE, queued::add);
        EmbeddedChannel server = server(NoiseHandler.server(handshakes, 2, stats), "10.0.0.1");
        carry(client(), server);
        server.writeInbound(Unpooled.wrappedBuffer(Frames.encode(2, new byte[] {1, 2, 3})));
        assertFalse(server.isOpen());
        assertEquals(1.0, Meters.protocolErrors(transport, "tcp", "noise"));
        runQueued();
        assertEquals(0, handshakes.inProgress());
        assertNull(server.readOutbound());
    }

    private double shed(String reason) {
        return Meters.count(registry, MeterNames.NOISE_HANDSHAKES_SHED, MeterNames.TAG_REASON, reason);
    }

    private void runQueued() {
        for (Runnable task; (task = queued.poll()) != null; ) {
            task.run();
        }
    }

    private EmbeddedChannel server(NoiseHandler handler, String remote) {
        SocketAddress address = new InetSocketAddress(remote, 40_000);
        EmbeddedChannel ch = new EmbeddedChannel(handler) {
            @Override
            protected SocketAddress remoteAddress0() {
                return address;
            }
        };
        channels.add(ch);
        return ch;
    }

    private EmbeddedChannel client() {
        EmbeddedChannel ch = new EmbeddedChannel(NoiseHandler.client(ClientNoiseConfig.builder(KEY.publicKey()).build(), 2,
                Meters.tcpStats()));
        channels.add(ch);
        return ch;
    }

    private static void carry(EmbeddedChannel from, EmbeddedChannel to) {
        for (ByteBuf out; (out = from.readOutbound()) != null; ) {
            to.writeInbound(out);
        }
    }
}
