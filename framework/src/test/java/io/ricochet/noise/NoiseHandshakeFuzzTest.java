package io.ricochet.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.ProtocolErrorKind;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.metrics.HandshakeCounters;
import io.ricochet.testing.Meters;
import java.util.Arrays;

/**
 * Any bytes from a peer to a Noise server, before its handshake (input[0] even) or after a real one (odd): the
 * server never delivers plaintext it was not sent sealed, never finishes a handshake it was not offered, never
 * throws anything but the end of its input ({@link NoiseDecoderException}), and either waits for more or refuses with
 * the error counted once.
 */
class NoiseHandshakeFuzzTest {
    private static final NoiseKeyPair KEY = NoiseKeyPair.generate();

    @FuzzTest(maxDuration = "10s")
    void aServerRefusesWhatItWasNotSent(byte[] input) {
        if (input.length == 0) {
            return;
        }
        byte[] peer = Arrays.copyOfRange(input, 1, input.length);
        boolean afterHandshake = (input[0] & 1) == 1;
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TransportCounters counters = Meters.tcpMeters(registry);
        EmbeddedChannel server = new EmbeddedChannel(NoiseHandler.server(NoiseHandshakes.inline(ServerNoiseConfig.of(KEY), HandshakeCounters.NONE), 2,
                new ConnectionStats(counters)));
        EmbeddedChannel client = null;
        try {
            if (afterHandshake) {
                client = new EmbeddedChannel(NoiseHandler.client(ClientNoiseConfig.builder(KEY.publicKey()).build(), 2,
                        Meters.tcpStats()));
                for (ByteBuf out; (out = client.readOutbound()) != null; ) {
                    server.writeInbound(out);
                }
                releaseAll(server);
            }
            boolean handshaken = server.pipeline().get(NoiseHandler.class).handshakeFuture().isSuccess();
            boolean refused = false;
            try {
                server.writeInbound(Unpooled.wrappedBuffer(peer));
            } catch (NoiseDecoderException e) {
                // A bad transport message: the input ends there, for the session to close once drained.
                refused = true;
            }
            Object delivered = server.readInbound();
            if (delivered != null) {
                ReferenceCountUtil.release(delivered);
            }
            assertNull(delivered, "plaintext delivered from bytes nobody sealed");
            NoiseHandler handler = server.pipeline().get(NoiseHandler.class);
            if (!handshaken && handler != null) {
                assertFalse(handler.handshakeFuture().isSuccess(), "a handshake nobody offered");
            }
            double errors = Meters.protocolErrors(registry, "tcp", ProtocolErrorKind.NOISE.tag());
            assertEquals(refused || !server.isOpen() ? 1.0 : 0.0, errors, "refused without counting, or counted silently");
        } finally {
            releaseAll(server);
            server.finishAndReleaseAll();
            if (client != null) {
                client.finishAndReleaseAll();
            }
        }
    }

    private static void releaseAll(EmbeddedChannel ch) {
        for (Object out; (out = ch.readOutbound()) != null; ) {
            ReferenceCountUtil.release(out);
        }
    }
}
