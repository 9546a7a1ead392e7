package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.config.ServerConfig;
import io.ricochet.testing.Frames;
import io.ricochet.testing.LossyRelay;
import io.ricochet.testing.QuicTestClient;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestCertificates;
import io.ricochet.transport.Protocol;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * QUIC through a path that drops 5% of the datagrams each way, duplicates 2% and reorders them (up to 2 ms of delay):
 * every frame is answered exactly once, in order and verified, as if the path were clean.
 */
@Timeout(90)
class QuicLossTest {
    private static final int FRAMES = 2_000;
    private static final int PER_WRITE = 100;

    @TempDir
    static Path dir;
    static QuicSslContext tls;

    @BeforeAll
    static void certificate() throws IOException {
        tls = TestCertificates.issue(dir).serverQuic();
    }

    @Test
    void everyFrameArrivesOnceInOrderThroughALossyPath() throws Exception {
        ServerConfig config = ServerConfig.builder().host("127.0.0.1").ioThreads(1).tcpPort(ServerConfig.DISABLED)
                .udpPort(ServerConfig.DISABLED).quicPort(0).build();
        try (RicochetServer server = RicochetServer.builder().config(config).handler(new ReverseEcho()).quic(tls)
                        .build().startAndAwait();
                LossyRelay relay = new LossyRelay(server.quicAddress(),
                        new LossyRelay.Impairment(0.05, 0.02, Duration.ofMillis(2)), 16);
                QuicTestClient client = QuicTestClient.connect(relay.address(), Protocol.QUIC_ALPN)) {
            QuicTestClient.Stream stream = client.openStream();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (int sent = 0; sent < FRAMES; sent += PER_WRITE) {
                ByteArrayOutputStream batch = new ByteArrayOutputStream();
                for (int i = sent; i < sent + PER_WRITE; i++) {
                    byte[] body = Frames.body(64, i);
                    batch.write(Frames.encode(2, body));
                    expected.write(Frames.encode(2, Frames.reversed(body)));
                }
                stream.write(batch.toByteArray());
            }
            // A stall fails with both ends' state, so a rare one can be told from a slow path.
            byte[] replies = stream.read(expected.size(), Duration.ofSeconds(60),
                    () -> "server: " + server.activeQuicConnections() + " connections, " + server.activeQuicStreams()
                            + " streams, " + server.pendingOutboundBytes() + " bytes pending; relay: " + relay);
            assertArrayEquals(expected.toByteArray(), replies, "every reply once, in order, verified");
            assertTrue(relay.toServer().dropped() > 0 && relay.toClient().dropped() > 0,
                    "the path lost datagrams both ways: " + relay.toServer() + " / " + relay.toClient());
        }
    }
}
