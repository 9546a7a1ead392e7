package io.ricochet.tls;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.ssl.OpenSsl;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.client.FrameClient.FrameExchange;
import io.ricochet.transport.client.FrameClient;
import io.ricochet.transport.server.RicochetServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** TLS on a framed TCP listener, with certificates made by {@link DevCertificates}, over both providers. */
@Timeout(60)
class TlsServerTest {
    private static final Instant NOW = Instant.now();
    private static final Instant HOUR_AGO = NOW.minus(Duration.ofHours(1));
    private static final Instant TOMORROW = NOW.plus(Duration.ofDays(1));

    @TempDir
    static Path dir;
    static DevCertificates.PemFiles ca;
    static DevCertificates.PemFiles server;
    static DevCertificates.PemFiles client;
    static DevCertificates.PemFiles otherCa;
    static DevCertificates.PemFiles expired;
    /** A client certificate issued by {@link #otherCa}: one a server trusting {@link #ca} refuses. */
    static DevCertificates.PemFiles stranger;
    static DevCertificates.PemFiles expiredClient;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void certificates() throws IOException {
        DevCertificates.Issued authority = DevCertificates.certificateAuthority("Ricochet test CA", HOUR_AGO, TOMORROW);
        ca = authority.write(dir, "ca");
        server = DevCertificates.issue(authority, "localhost", HOUR_AGO, TOMORROW).write(dir, "server");
        client = DevCertificates.issue(authority, "load-generator", HOUR_AGO, TOMORROW).write(dir, "client");
        expired = DevCertificates.issue(authority, "localhost", NOW.minus(Duration.ofDays(2)), HOUR_AGO).write(dir, "expired");
        DevCertificates.Issued another = DevCertificates.certificateAuthority("Another CA", HOUR_AGO, TOMORROW);
        otherCa = another.write(dir, "other-ca");
        stranger = DevCertificates.issue(another, "stranger", HOUR_AGO, TOMORROW).write(dir, "stranger");
        expiredClient = DevCertificates.issue(authority, "load-generator", NOW.minus(Duration.ofDays(2)), HOUR_AGO)
                .write(dir, "expired-client");
    }

    static Stream<TlsProvider> providers() {
        return OpenSsl.isAvailable() ? Stream.of(TlsProvider.OPENSSL, TlsProvider.JDK) : Stream.of(TlsProvider.JDK);
    }

    @ParameterizedTest
    @MethodSource("providers")
    void echoesOverTlsAndClosesWithCloseNotify(TlsProvider provider) throws Exception {
        try (RicochetServer s = start(ServerTlsConfig.builder(server.certificate(), server.privateKey()).provider(provider).build());
             FrameClient c = client(ClientTlsConfig.builder().trustedCa(ca.certificate()).provider(provider).build())) {
            FrameExchange exchange = c.connect(s.tcpAddress()).get(20, TimeUnit.SECONDS);
            for (int i = 0; i < 100; i++) {
                byte[] body = Frames.body(i + 1, i);
                assertArrayEquals(Frames.reversed(body), reply(exchange, body));
            }
            assertEquals(0.0, Meters.protocolErrors(registry, "tcp", "tls"));
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aClientThatTrustsAnotherCaIsRefused(TlsProvider provider) throws Exception {
        try (RicochetServer s = start(ServerTlsConfig.builder(server.certificate(), server.privateKey()).provider(provider).build());
             FrameClient c = client(ClientTlsConfig.builder().trustedCa(otherCa.certificate()).provider(provider).build())) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> c.connect(s.tcpAddress()).get(20, TimeUnit.SECONDS));
            assertTrue(isSslFailure(e.getCause()), e.getCause().toString());
            awaitTlsErrors(1);
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void anExpiredServerCertificateIsRefused(TlsProvider provider) throws Exception {
        try (RicochetServer s = start(ServerTlsConfig.builder(expired.certificate(), expired.privateKey()).provider(provider).build());
             FrameClient c = client(ClientTlsConfig.builder().trustedCa(ca.certificate()).provider(provider).build())) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> c.connect(s.tcpAddress()).get(20, TimeUnit.SECONDS));
            assertTrue(isSslFailure(e.getCause()), e.getCause().toString());
            awaitTlsErrors(1);
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void mutualTlsRefusesAClientWithoutACertificateAndServesOneWithIt(TlsProvider provider) throws Exception {
        ServerTlsConfig mutual = ServerTlsConfig.builder(server.certificate(), server.privateKey()).clientCa(ca.certificate())
                .provider(provider).build();
        try (RicochetServer s = start(mutual);
             FrameClient anonymous = client(ClientTlsConfig.builder().trustedCa(ca.certificate()).provider(provider).build());
             FrameClient known = client(ClientTlsConfig.builder().trustedCa(ca.certificate())
                     .clientCertificate(client.certificate(), client.privateKey()).provider(provider).build())) {
            // In TLS 1.3 the client may finish its side of the handshake before the server refuses it: the
            // refusal then ends the first request instead of the connect.
            CompletableFuture<ByteBuf> refused = anonymous.connect(s.tcpAddress())
                    .thenCompose(exchange -> exchange.request(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})));
            ExecutionException e = assertThrows(ExecutionException.class, () -> refused.get(20, TimeUnit.SECONDS));
            assertTrue(e.getCause() != null, "refused without a cause");
            awaitTlsErrors(1);
            FrameExchange exchange = known.connect(s.tcpAddress()).get(20, TimeUnit.SECONDS);
            assertArrayEquals(new byte[] {3, 2, 1}, reply(exchange, new byte[] {1, 2, 3}));
        }
    }

    /**
     * A client certificate the server refuses gets the certificate alert that says why, from either provider, never
     * {@code internal_error} (what BoringSSL sent for a certificate from an unknown CA, as Netty handed it the JDK trust
     * manager's refusal without a reason it knows). Debian's openssl is the client: it sends its certificate whatever
     * CAs the server names, and prints the alert's number.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("refusedClientCertificates")
    void aRefusedClientCertificateGetsACertificateAlert(TlsProvider provider, String protocol, String presented,
            Alert alert) throws Exception {
        ServerTlsConfig mutual = ServerTlsConfig.builder(server.certificate(), server.privateKey())
                .clientCa(ca.certificate()).provider(provider).build();
        DevCertificates.PemFiles certificate = switch (presented) {
            case "none" -> null;
            case "unknown-ca" -> stranger;
            case "expired" -> expiredClient;
            default -> throw new IllegalArgumentException(presented);
        };
        try (RicochetServer s = start(mutual)) {
            assertEquals(alert, OpensslClient.alertReceived(s.tcpAddress(), protocol, ca.certificate(), certificate));
            awaitTlsErrors(1);
        }
    }

    /** The alerts a refused client certificate may get (RFC 8446, section 6). */
    enum Alert {
        HANDSHAKE_FAILURE(40), BAD_CERTIFICATE(42), CERTIFICATE_EXPIRED(45), CERTIFICATE_UNKNOWN(46), UNKNOWN_CA(48),
        INTERNAL_ERROR(80), CERTIFICATE_REQUIRED(116);

        final int number;

        Alert(int number) {
            this.number = number;
        }

        static Alert of(int number) {
            for (Alert a : values()) {
                if (a.number == number) {
                    return a;
                }
            }
            throw new AssertionError("alert " + number);
        }
    }

    /** Provider, protocol, the client's certificate, and the alert expected. */
    static Stream<Arguments> refusedClientCertificates() {
        return providers().flatMap(provider -> {
            boolean jdk = provider == TlsProvider.JDK;
            return Stream.of(
                    Arguments.of(provider, "TLSv1.3", "unknown-ca", jdk ? Alert.CERTIFICATE_UNKNOWN : Alert.UNKNOWN_CA),
                    Arguments.of(provider, "TLSv1.2", "unknown-ca", jdk ? Alert.CERTIFICATE_UNKNOWN : Alert.UNKNOWN_CA),
                    Arguments.of(provider, "TLSv1.3", "expired",
                            jdk ? Alert.CERTIFICATE_UNKNOWN : Alert.CERTIFICATE_EXPIRED),
                    Arguments.of(provider, "TLSv1.3", "none",
                            jdk ? Alert.BAD_CERTIFICATE : Alert.CERTIFICATE_REQUIRED),
                    Arguments.of(provider, "TLSv1.2", "none",
                            jdk ? Alert.BAD_CERTIFICATE : Alert.HANDSHAKE_FAILURE));
        });
    }

    @Test
    void plaintextToATlsPortIsClosedAndCounted() throws Exception {
        try (RicochetServer s = start(ServerTlsConfig.builder(server.certificate(), server.privateKey()).build());
             io.ricochet.testing.FrameClient plain = new io.ricochet.testing.FrameClient(s.tcpAddress(), 2)) {
            plain.sendRaw(Frames.encode(2, "hello, plaintext".getBytes(StandardCharsets.US_ASCII)));
            assertTrue(plain.isClosedByServer());
            awaitTlsErrors(1);
            await().atMost(10, TimeUnit.SECONDS).until(() -> Meters.closed(registry, "tcp", "protocol_error") == 1.0);
        }
    }

    /** A peer that completes no handshake is closed once the handshake timeout passes, and counted. */
    @Test
    void aSilentPeerIsClosedAtTheHandshakeTimeout() throws Exception {
        ServerTlsConfig config = ServerTlsConfig.builder(server.certificate(), server.privateKey())
                .handshakeTimeout(Duration.ofMillis(300)).build();
        try (RicochetServer s = start(config);
             io.ricochet.testing.FrameClient silent = new io.ricochet.testing.FrameClient(s.tcpAddress(), 2)) {
            assertTrue(silent.isClosedByServer());
            awaitTlsErrors(1);
        }
    }

    /** Debian's openssl as the client: a reversed echo frame over a real TLS stack that is not ours. */
    @Test
    void opensslSClientExchangesAFrame() throws Exception {
        try (RicochetServer s = start(ServerTlsConfig.builder(server.certificate(), server.privateKey()).build())) {
            Process p = new ProcessBuilder(List.of("openssl", "s_client", "-quiet", "-no_ign_eof", "-verify_return_error",
                    "-CAfile", ca.certificate().toString(), "-connect", "127.0.0.1:" + s.tcpAddress().getPort()))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                OutputStream in = p.getOutputStream();
                in.write(Frames.encode(2, "abc".getBytes(StandardCharsets.US_ASCII)));
                in.flush();
                InputStream out = p.getInputStream();
                byte[] reply = out.readNBytes(5);
                assertArrayEquals(Frames.encode(2, "cba".getBytes(StandardCharsets.US_ASCII)), reply);
            } finally {
                p.destroy();
                assertTrue(p.waitFor(10, TimeUnit.SECONDS), "openssl s_client did not end");
            }
        }
    }

    /** A context of the wrong side would fail every handshake: it is refused where it is given. */
    @Test
    void aContextOfTheWrongSideIsRefusedWhereItIsGiven() {
        Tls clientSide = ClientTlsConfig.builder().trustedCa(ca.certificate()).build().build();
        Tls serverSide = ServerTlsConfig.builder(server.certificate(), server.privateKey()).build().build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RicochetServer.builder().tls(clientSide));
        assertEquals("tls: a client context (expected: a server context)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FrameClient.builder().tls(serverSide));
        assertEquals("tls: a server context (expected: a client context)", e.getMessage());
    }

    @Test
    void aMissingKeyFileIsOneClearLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerTlsConfig.builder(server.certificate(), dir.resolve("missing.key")).build().build());
        assertTrue(e.getMessage().contains("missing.key"), e.getMessage());
    }

    private RicochetServer start(ServerTlsConfig config) {
        return RicochetServer.builder().config(TestServers.config(TransportKind.AUTO).build()).handler(new ReverseEcho())
                .meterRegistry(registry).tls(config.build()).build().startAndAwait();
    }

    private static FrameClient client(ClientTlsConfig config) {
        return FrameClient.builder().tls(config.build()).build();
    }

    private static byte[] reply(FrameExchange exchange, byte[] body) throws Exception {
        ByteBuf reply = exchange.request(Unpooled.wrappedBuffer(body)).get(20, TimeUnit.SECONDS);
        try {
            return ByteBufUtil.getBytes(reply);
        } finally {
            reply.release();
        }
    }

    private void awaitTlsErrors(int count) {
        await().atMost(10, TimeUnit.SECONDS).until(() -> Meters.protocolErrors(registry, "tcp", "tls") == count);
    }

    private static boolean isSslFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException) {
                return true;
            }
        }
        return false;
    }
}
