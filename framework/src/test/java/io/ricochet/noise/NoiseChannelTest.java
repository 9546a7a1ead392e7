package io.ricochet.noise;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.client.FrameClient.FrameExchange;
import io.ricochet.transport.client.FrameClient;
import io.ricochet.transport.server.RicochetServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The Noise channel on a framed TCP listener: echo in both modes and key lengths, and every way it must refuse. */
@Timeout(60)
class NoiseChannelTest {
    private static final NoiseKeyPair KEY = NoiseKeyPair.generate();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    static Stream<Arguments> modes() {
        return Stream.of(Arguments.of(NoiseMode.PACKAGE, 128), Arguments.of(NoiseMode.PACKAGE, 256),
                Arguments.of(NoiseMode.STREAM, 128), Arguments.of(NoiseMode.STREAM, 256));
    }

    /** 10,000 frames, 100 in flight at a time so stream mode seals many per message, every reply verified. */
    @ParameterizedTest
    @MethodSource("modes")
    void echoesTenThousandFramesVerified(NoiseMode mode, int keyBits) throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build());
             FrameClient c = client(KEY.publicKey(), mode, keyBits, LengthField.TWO)) {
            FrameExchange exchange = c.connect(s.tcpAddress()).get(20, TimeUnit.SECONDS);
            for (int batch = 0; batch < 100; batch++) {
                List<byte[]> bodies = new ArrayList<>();
                List<CompletableFuture<ByteBuf>> replies = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    byte[] body = Frames.body(1 + (batch * 100 + i) % 1000, batch * 100L + i);
                    bodies.add(body);
                    replies.add(exchange.request(Unpooled.wrappedBuffer(body)));
                }
                for (int i = 0; i < 100; i++) {
                    assertArrayEquals(Frames.reversed(bodies.get(i)), bytes(replies.get(i).get(20, TimeUnit.SECONDS)));
                }
            }
            assertEquals(0.0, Meters.protocolErrors(registry, "tcp", "noise"));
        }
    }

    /** A frame larger than one message's plaintext is sealed as several messages and arrives whole. */
    @ParameterizedTest
    @MethodSource("modes")
    void aFrameLargerThanAMessageSpansSeveral(NoiseMode mode, int keyBits) throws Exception {
        ServerConfig config = TestServers.config(TransportKind.AUTO).lengthField(LengthField.FOUR).maxFrame(300_000).build();
        try (RicochetServer s = start(config);
             FrameClient c = FrameClient.builder().lengthField(LengthField.FOUR).maxFrame(300_000)
                     .noise(ClientNoiseConfig.builder(KEY.publicKey()).mode(mode).keyBits(keyBits).build()).build()) {
            FrameExchange exchange = c.connect(s.tcpAddress()).get(20, TimeUnit.SECONDS);
            byte[] body = Frames.body(200_000, 7);
            assertArrayEquals(Frames.reversed(body), bytes(exchange.request(Unpooled.wrappedBuffer(body)).get(20, TimeUnit.SECONDS)));
        }
    }

    @Test
    void oneFlippedByteClosesTheConnection() throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build());
             RawNoiseClient raw = new RawNoiseClient(s.tcpAddress(), KEY.publicKey(), NoiseMode.PACKAGE, 16, 2)) {
            raw.sendRaw(raw.seal(bytes("first")));
            assertArrayEquals(bytes("tsrif"), raw.receive());
            byte[] message = raw.seal(bytes("second"));
            message[5] ^= 0x01;
            raw.sendRaw(message);
            assertTrue(raw.isClosedByServer(), "an altered message was accepted");
            awaitNoiseErrors(1);
            await().atMost(10, TimeUnit.SECONDS).until(() -> Meters.closed(registry, "tcp", "protocol_error") == 1.0);
        }
    }

    /** Regression: replies owed for the messages before a bad one in the same read were dropped. */
    @Test
    void theFramesBeforeABadMessageAreAnsweredThenTheConnectionCloses() throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build());
             RawNoiseClient raw = new RawNoiseClient(s.tcpAddress(), KEY.publicKey(), NoiseMode.PACKAGE, 16, 2)) {
            byte[] first = raw.seal(bytes("first"));
            byte[] second = raw.seal(bytes("second"));
            byte[] third = raw.seal(bytes("third"));
            third[4] ^= 0x40;
            java.io.ByteArrayOutputStream batch = new java.io.ByteArrayOutputStream();
            batch.write(first);
            batch.write(second);
            batch.write(third);
            raw.sendRaw(batch.toByteArray());
            assertArrayEquals(bytes("tsrif"), raw.receive());
            assertArrayEquals(bytes("dnoces"), raw.receive());
            assertTrue(raw.isClosedByServer(), "the altered third message was accepted");
            awaitNoiseErrors(1);
            await().atMost(10, TimeUnit.SECONDS).until(() -> Meters.closed(registry, "tcp", "protocol_error") == 1.0);
        }
    }

    @Test
    void aStreamThatEndsInsideAMessageIsCountedTruncated() throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build());
             RawNoiseClient raw = new RawNoiseClient(s.tcpAddress(), KEY.publicKey(), NoiseMode.PACKAGE, 16, 2)) {
            byte[] message = raw.seal(bytes("cut short"));
            raw.sendRaw(java.util.Arrays.copyOf(message, message.length - 3));
            raw.shutdownOutput();
            assertTrue(raw.isClosedByServer());
            await().atMost(10, TimeUnit.SECONDS).until(() -> Meters.protocolErrors(registry, "tcp", "truncated") == 1.0);
            assertEquals(0.0, Meters.protocolErrors(registry, "tcp", "noise"));
        }
    }

    @Test
    void aLowOrderPointCannotBePinned() {
        byte[] zero = new byte[32];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClientNoiseConfig.builder(zero).build());
        assertEquals("serverPublicKey: a low-order point (expected: a server's public key)", e.getMessage());
        byte[] one = new byte[32];
        one[0] = 1;
        one[31] = (byte) 0x80;
        assertThrows(IllegalArgumentException.class, () -> ClientNoiseConfig.builder(one).build());
    }

    @Test
    void aReplayedMessageClosesTheConnection() throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build());
             RawNoiseClient raw = new RawNoiseClient(s.tcpAddress(), KEY.publicKey(), NoiseMode.STREAM, 32, 2)) {
            byte[] message = raw.seal(bytes("once"));
            raw.sendRaw(message);
            assertArrayEquals(bytes("ecno"), raw.receive());
            raw.sendRaw(message);
            assertTrue(raw.isClosedByServer(), "a replayed message was accepted");
            awaitNoiseErrors(1);
        }
    }

    @Test
    void aReorderedMessageClosesTheConnection() throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build());
             RawNoiseClient raw = new RawNoiseClient(s.tcpAddress(), KEY.publicKey(), NoiseMode.PACKAGE, 32, 2)) {
            byte[] first = raw.seal(bytes("first"));
            byte[] second = raw.seal(bytes("second"));
            raw.sendRaw(second);
            raw.sendRaw(first);
            assertTrue(raw.isClosedByServer(), "a message out of order was accepted");
            awaitNoiseErrors(1);
        }
    }

    @Test
    void aWrongPinnedKeyFailsTheHandshake() throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build());
             FrameClient c = client(NoiseKeyPair.generate().publicKey(), NoiseMode.PACKAGE, 256, LengthField.TWO)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> c.connect(s.tcpAddress()).get(20, TimeUnit.SECONDS));
            assertInstanceOf(NoiseException.class, e.getCause());
            awaitNoiseErrors(1);
        }
    }

    @Test
    void plaintextToANoisePortIsClosedAndCounted() throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build());
             io.ricochet.testing.FrameClient plain = new io.ricochet.testing.FrameClient(s.tcpAddress(), 2)) {
            plain.sendRaw(Frames.encode(2, bytes("hello, plaintext")));
            assertTrue(plain.isClosedByServer());
            awaitNoiseErrors(1);
        }
    }

    @Test
    void aSilentPeerIsClosedAtTheHandshakeTimeout() throws Exception {
        try (RicochetServer s = RicochetServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .handler(new ReverseEcho()).meterRegistry(registry)
                .noise(ServerNoiseConfig.builder(KEY).handshakeTimeout(Duration.ofMillis(300)).build()).build().startAndAwait();
             io.ricochet.testing.FrameClient silent = new io.ricochet.testing.FrameClient(s.tcpAddress(), 2)) {
            assertTrue(silent.isClosedByServer());
            awaitNoiseErrors(1);
        }
    }

    /** A client asking for a key length the channel does not have is refused in the handshake. */
    @Test
    void aClientAskingForAnotherKeyLengthIsRefused() throws Exception {
        try (RicochetServer s = start(TestServers.config(TransportKind.AUTO).build())) {
            assertThrows(java.io.IOException.class,
                    () -> new RawNoiseClient(s.tcpAddress(), KEY.publicKey(), NoiseMode.PACKAGE, 24, 2).close());
            awaitNoiseErrors(1);
        }
    }

    @Test
    void tlsAndNoiseOnOneServerAreRefused(@TempDir Path dir) throws Exception {
        java.time.Instant now = java.time.Instant.now();
        io.ricochet.tls.DevCertificates.PemFiles pem = io.ricochet.tls.DevCertificates.certificateAuthority("localhost",
                now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1))).write(dir, "server");
        io.ricochet.tls.Tls tls = io.ricochet.tls.ServerTlsConfig.builder(pem.certificate(), pem.privateKey()).build().build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RicochetServer.builder()
                .handler(new ReverseEcho()).noise(ServerNoiseConfig.of(KEY)).tls(tls).build());
        assertEquals("tls and noise on one server (expected: one or the other)", e.getMessage());
    }

    @Test
    void aKeyFileRoundTripsAndIsReadableByItsOwnerOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("noise.key");
        KEY.write(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertArrayEquals(KEY.publicKey(), NoiseKeyPair.read(file).publicKey());
        assertThrows(FileAlreadyExistsException.class, () -> KEY.write(file));
        assertFalse(KEY.toString().contains(java.util.Base64.getEncoder().encodeToString(KEY.privateKey())));
        Files.writeString(file.resolveSibling("bad.key"), "not base64!\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NoiseKeyPair.read(file.resolveSibling("bad.key")));
        assertTrue(e.getMessage().startsWith("noise key " + file.resolveSibling("bad.key")), e.getMessage());
        assertArrayEquals(KEY.publicKey(), NoiseKeyPair.parsePublicKey(KEY.publicKeyBase64()));
        e = assertThrows(IllegalArgumentException.class, () -> NoiseKeyPair.parsePublicKey("AAAA"));
        assertEquals("noise public key: 3 bytes (expected: 32)", e.getMessage());
    }

    private RicochetServer start(ServerConfig config) {
        return RicochetServer.builder().config(config).handler(new ReverseEcho()).meterRegistry(registry)
                .noise(ServerNoiseConfig.of(KEY)).build().startAndAwait();
    }

    private static FrameClient client(byte[] serverKey, NoiseMode mode, int keyBits, LengthField lengthField) {
        return FrameClient.builder().lengthField(lengthField)
                .noise(ClientNoiseConfig.builder(serverKey).mode(mode).keyBits(keyBits).build()).build();
    }

    private void awaitNoiseErrors(int count) {
        await().atMost(10, TimeUnit.SECONDS).until(() -> Meters.protocolErrors(registry, "tcp", "noise") == count);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] bytes(ByteBuf reply) {
        try {
            return ByteBufUtil.getBytes(reply);
        } finally {
            reply.release();
        }
    }
}
