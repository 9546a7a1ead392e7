package io.ricochet.loadgen.cli;

import io.ricochet.tls.DevCertificates;
import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.tls.Tls;
import io.ricochet.tls.TlsProvider;
import io.ricochet.transport.Protocol;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A throwaway CA and a server certificate it issued (for localhost and 127.0.0.1), as PEM files in a
 * temporary directory that {@link #close} deletes: the embedded server's TLS under {@code --tls}.
 */
final class EmbeddedCertificates implements AutoCloseable {
    private final Path dir;
    private final DevCertificates.PemFiles ca;
    private final DevCertificates.PemFiles server;

    EmbeddedCertificates() {
        Instant now = Instant.now();
        // A little slack before now: the client's clock is this one, but the handshake checks notBefore strictly.
        Instant from = now.minus(Duration.ofMinutes(5));
        Instant to = now.plus(Duration.ofDays(2));
        try {
            dir = Files.createTempDirectory("ricochet-loadgen-tls");
            DevCertificates.Issued authority = DevCertificates.certificateAuthority("ricochet load-generator CA", from, to);
            ca = authority.write(dir, "ca");
            server = DevCertificates.issue(authority, "localhost", from, to).write(dir, "server");
        } catch (IOException e) {
            throw new UncheckedIOException("embedded TLS certificates: " + e.getMessage(), e);
        }
    }

    /** The CA certificate (PEM) the clients trust. */
    Path ca() {
        return ca.certificate();
    }

    /**
     * The server's QUIC TLS from the same certificate, with Ricochet's ALPN, accepting 0-RTT early data as the
     * echo-server does: a replayed echo only gets its reply again.
     */
    QuicSslContext serverQuic() {
        return ServerTlsConfig.builder(server.certificate(), server.privateKey()).build()
                .buildQuic(Protocol.QUIC_ALPN, true);
    }

    Tls serverTls(TlsProvider provider) {
        return ServerTlsConfig.builder(server.certificate(), server.privateKey()).provider(provider).build().build();
    }

    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Best effort: a leftover temporary directory holds only a throwaway key.
        }
    }
}
