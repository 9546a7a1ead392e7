package io.ricochet.testing;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.tls.DevCertificates;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.transport.Protocol;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A throwaway CA and a server certificate it issued (for localhost and 127.0.0.1, valid from an hour ago for a day),
 * as PEM files in a test's directory.
 */
public record TestCertificates(Path caCertificate, DevCertificates.PemFiles server) {
    /** The CA's common name, which its certificates' issuer names. */
    public static final String CA_NAME = "Ricochet test CA";

    public static TestCertificates issue(Path dir) throws IOException {
        Instant now = Instant.now();
        DevCertificates.Issued ca = DevCertificates.certificateAuthority(CA_NAME, now.minusSeconds(3600),
                now.plusSeconds(86_400));
        DevCertificates.PemFiles server = DevCertificates.issue(ca, "localhost", now.minusSeconds(3600),
                now.plusSeconds(86_400)).write(dir, "server");
        return new TestCertificates(ca.write(dir, "ca").certificate(), server);
    }

    /** The server's QUIC TLS, offering Ricochet's ALPN, refusing 0-RTT early data. */
    public QuicSslContext serverQuic() {
        return serverQuic(false);
    }

    public QuicSslContext serverQuic(boolean acceptEarlyData) {
        return ServerTlsConfig.builder(server.certificate(), server.privateKey()).build().buildQuic(Protocol.QUIC_ALPN,
                acceptEarlyData);
    }
}
