package io.ricochet.tls;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.ssl.OpenSsl;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.server.RicochetServer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A TLS 1.2 client that asks for a new handshake on a connection it has: on the JDK provider the server once made
 * 19 full handshakes on one connection in 4 s, each costing it a signature. BoringSSL refuses client-initiated
 * renegotiation with a fatal alert; the JDK provider must too.
 */
@Timeout(60)
class TlsRenegotiationTest {
    @TempDir
    static Path dir;
    static DevCertificates.PemFiles ca;
    static DevCertificates.PemFiles server;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void certificates() throws IOException {
        Instant now = Instant.now();
        DevCertificates.Issued authority = DevCertificates.certificateAuthority("Ricochet test CA",
                now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)));
        ca = authority.write(dir, "ca");
        server = DevCertificates.issue(authority, "localhost", now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)))
                .write(dir, "server");
    }

    static Stream<TlsProvider> providers() {
        return OpenSsl.isAvailable() ? Stream.of(TlsProvider.JDK, TlsProvider.OPENSSL) : Stream.of(TlsProvider.JDK);
    }

    @ParameterizedTest
    @MethodSource("providers")
    void aClientInitiatedRenegotiationEndsTheConnection(TlsProvider provider) throws Exception {
        Tls tls = ServerTlsConfig.builder(server.certificate(), server.privateKey()).provider(provider).build().build();
        try (RicochetServer s = RicochetServer.builder().config(TestServers.config(TransportKind.AUTO).build())
                .handler(new ReverseEcho()).meterRegistry(registry).tls(tls).build().startAndAwait();
                SSLSocket socket = (SSLSocket) tls12Client().getSocketFactory().createSocket("127.0.0.1",
                        s.tcpAddress().getPort())) {
            socket.setSoTimeout(10_000);
            socket.setEnabledProtocols(new String[] {"TLSv1.2"});
            socket.startHandshake();
            assertArrayEquals(new byte[] {3, 2, 1}, echo(socket, new byte[] {1, 2, 3}), "served before");

            // TLS 1.2: a second handshake on the same connection, the client's ClientHello sent at once.
            socket.startHandshake();
            assertThrows(IOException.class, () -> echo(socket, new byte[] {4, 5, 6}),
                    "a connection that renegotiated is served no more");
            // Counted once, as every TLS failure is, and the connection closed.
            await().atMost(Duration.ofSeconds(10)).until(() -> Meters.protocolErrors(registry, "tcp", "tls") == 1.0);
            await().atMost(Duration.ofSeconds(10)).until(() -> s.activeConnections() == 0);
        }
    }

    /** A JDK client, TLS 1.2 as asked per socket, trusting the test CA. */
    private static SSLContext tls12Client() throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream pem = Files.newInputStream(ca.certificate())) {
            trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static byte[] echo(SSLSocket socket, byte[] body) throws IOException {
        socket.getOutputStream().write(Frames.encode(2, body));
        socket.getOutputStream().flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] reply = new byte[in.readUnsignedShort()];
        in.readFully(reply);
        return reply;
    }
}
