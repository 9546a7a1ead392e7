package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.metrics.MeterNames;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.testing.Meters;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuicAmplificationLimiterTest {
    private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 443);
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 50_000);
    private static final int INITIAL = 0xc0;
    private static final int HANDSHAKE = 0xe0;
    private static final int SHORT_HEADER = 0x40;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMeters meters = TransportMeters.register(registry, "quic", "quic", "server", "nio", () -> 0);

    private EmbeddedChannel channel() {
        UnvalidatedAddresses addresses = new UnvalidatedAddresses(16, Duration.ofSeconds(35), System::nanoTime);
        return new EmbeddedChannel(new QuicAmplificationLimiter(addresses, meters, false));
    }

    /** A datagram of {@code size} bytes from the client whose first byte is {@code first}, of QUIC {@code version}. */
    private static DatagramPacket fromClient(int first, int version, int size) {
        ByteBuf content = Unpooled.buffer(size).writeByte(first).writeInt(version).writeZero(size - 5);
        return new DatagramPacket(content, SERVER, CLIENT);
    }

    private static DatagramPacket toClient(int size) {
        return new DatagramPacket(Unpooled.buffer(size).writeZero(size), CLIENT);
    }

    private double dropped(String reason) {
        return Meters.count(registry, MeterNames.DATAGRAMS_DROPPED, MeterNames.TAG_REASON, reason);
    }

    @Test
    void whatWouldPassThreeTimesWhatTheAddressSentIsDroppedAndReleased() {
        EmbeddedChannel channel = channel();
        try {
            channel.writeInbound(fromClient(INITIAL, 1, 1200));
            ((DatagramPacket) channel.readInbound()).release();
            for (int i = 0; i < 3; i++) {
                channel.writeOutbound(toClient(1200));
                ((DatagramPacket) channel.readOutbound()).release();
            }
            DatagramPacket over = toClient(1);
            ChannelFuture write = channel.writeOneOutbound(over);
            channel.flushOutbound();
            assertNull(channel.readOutbound());
            assertEquals(0, over.refCnt());
            assertTrue(write.isSuccess(), "done, as a datagram the network lost");
            assertEquals(1.0, dropped("amplification_limit"));

            // A datagram from the address, of any kind, adds three times its size.
            channel.writeInbound(fromClient(SHORT_HEADER, 0, 100));
            ((DatagramPacket) channel.readInbound()).release();
            channel.writeOutbound(toClient(300));
            ((DatagramPacket) channel.readOutbound()).release();
            // Elsewhere, and anything but a datagram, is not limited.
            channel.writeOutbound(new DatagramPacket(Unpooled.buffer(5000).writeZero(5000),
                    new InetSocketAddress("127.0.0.1", 50_001)));
            ((DatagramPacket) channel.readOutbound()).release();
            assertEquals(1.0, dropped("amplification_limit"));
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /**
     * A datagram addressed to the connection ID the server's long header named as its own validates the address; one
     * named by Version Negotiation (the client's own ID, echoed) does not.
     */
    @ParameterizedTest
    @CsvSource({"1, 1, true", "1, 0, true", "0, 1, false"})
    void anAddressUsingTheConnectionIdTheServerSentItIsNoLongerLimited(int serverVersion, int clientHeaderLong,
            boolean validated) {
        EmbeddedChannel channel = channel();
        try {
            channel.writeInbound(fromClient(INITIAL, 1, 1200));
            ((DatagramPacket) channel.readInbound()).release();
            byte[] serverId = {9, 8, 7, 6, 5, 4, 3, 2};
            ByteBuf answer = Unpooled.buffer().writeByte(INITIAL).writeInt(serverVersion).writeByte(4)
                    .writeInt(0x01020304).writeByte(serverId.length).writeBytes(serverId).writeZero(1000);
            channel.writeOutbound(new DatagramPacket(answer, CLIENT));
            ((DatagramPacket) channel.readOutbound()).release();
            ByteBuf reply = clientHeaderLong == 1
                    ? Unpooled.buffer().writeByte(HANDSHAKE).writeInt(1).writeByte(serverId.length).writeBytes(serverId)
                    : Unpooled.buffer().writeByte(SHORT_HEADER).writeBytes(serverId);
            channel.writeInbound(new DatagramPacket(reply.writeZero(40), SERVER, CLIENT));
            ((DatagramPacket) channel.readInbound()).release();
            channel.writeOutbound(toClient(10_000));
            DatagramPacket sent = channel.readOutbound();
            assertEquals(validated, sent != null);
            if (sent != null) {
                sent.release();
            }
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void anInitialFromANewAddressIsDroppedWhileTheTableIsFull() {
        UnvalidatedAddresses addresses = new UnvalidatedAddresses(1, Duration.ofSeconds(35), System::nanoTime);
        EmbeddedChannel channel = new EmbeddedChannel(new QuicAmplificationLimiter(addresses, meters, false));
        try {
            channel.writeInbound(fromClient(INITIAL, 1, 1200));
            ((DatagramPacket) channel.readInbound()).release();
            DatagramPacket other = new DatagramPacket(Unpooled.buffer(1200).writeByte(INITIAL).writeInt(1)
                    .writeZero(1195), SERVER, new InetSocketAddress("127.0.0.1", 50_001));
            channel.writeInbound(other);
            assertNull(channel.readInbound());
            assertEquals(0, other.refCnt());
            assertEquals(1.0, dropped("unvalidated_limit"));
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /**
     * With Retry, the codec answers a tokenless Initial statelessly with a Retry and makes a connection only for a valid
     * token, which validates the address: forged Initials take no place in the table, so they cannot fill it and keep
     * a real client's Initial out.
     */
    @Test
    void withRetryNoInitialTakesAPlaceInTheTable() {
        UnvalidatedAddresses addresses = new UnvalidatedAddresses(1, Duration.ofSeconds(35), System::nanoTime);
        EmbeddedChannel channel = new EmbeddedChannel(new QuicAmplificationLimiter(addresses, meters, true));
        try {
            for (int port = 50_000; port < 50_010; port++) {
                DatagramPacket forged = new DatagramPacket(Unpooled.buffer(1200).writeByte(INITIAL).writeInt(1)
                        .writeZero(1195), SERVER, new InetSocketAddress("127.0.0.1", port));
                channel.writeInbound(forged);
                ((DatagramPacket) channel.readInbound()).release();
            }
            assertEquals(0, addresses.size());
            assertEquals(0.0, dropped("unvalidated_limit"));
            channel.writeOutbound(toClient(100));
            ((DatagramPacket) channel.readOutbound()).release();
            assertEquals(0.0, dropped("amplification_limit"));
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
