package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.metrics.MeterNames;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.testing.Meters;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuicInitialSizeHandlerTest {
    private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 443);
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 50_000);
    private static final int INITIAL = 0xc0;
    private static final int HANDSHAKE = 0xe0;
    private static final int SHORT_HEADER = 0x40;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMeters meters = TransportMeters.register(registry, "quic", "quic", "server", "nio", () -> 0);

    private EmbeddedChannel channel() {
        return new EmbeddedChannel(new QuicInitialSizeHandler(meters));
    }

    /** A datagram of {@code size} bytes from the client whose first byte is {@code first}, of QUIC {@code version}. */
    private static DatagramPacket fromClient(int first, int version, int size) {
        ByteBuf content = Unpooled.buffer(size).writeByte(first).writeInt(version).writeZero(size - 5);
        return new DatagramPacket(content, SERVER, CLIENT);
    }

    private double dropped() {
        return Meters.count(registry, MeterNames.DATAGRAMS_DROPPED, MeterNames.TAG_REASON, "short_initial");
    }

    /** Initials, and long headers of other versions (which would be answered with Version Negotiation). */
    @ParameterizedTest
    @CsvSource({"192, 1, 1199", "192, 1, 265", "192, 0x6b3343cf, 1199", "208, 7, 1199", "192, 0, 40", "192, 1, 3"})
    void aDatagramUnder1200BytesThatWouldOpenAConnectionIsDroppedAndReleased(int first, String version, int size) {
        EmbeddedChannel channel = channel();
        try {
            DatagramPacket packet = fromClient(first, Integer.decode(version), Math.max(size, 5));
            if (size < 5) {
                packet.content().writerIndex(size);
            }
            assertFalse(channel.writeInbound(packet));
            assertEquals(0, packet.refCnt());
            assertEquals(1.0, dropped());
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void otherDatagramsPassWhateverTheirSize() {
        EmbeddedChannel channel = channel();
        try {
            for (DatagramPacket packet : new DatagramPacket[] {fromClient(INITIAL, 1, 1200),
                    fromClient(HANDSHAKE, 1, 60), fromClient(SHORT_HEADER, 0x1234_5678, 30)}) {
                channel.writeInbound(packet);
                DatagramPacket read = channel.readInbound();
                assertSame(packet, read);
                read.release();
            }
            assertEquals(0.0, dropped());
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
