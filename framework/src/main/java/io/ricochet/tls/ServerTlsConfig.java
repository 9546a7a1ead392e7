package io.ricochet.tls;

import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.ricochet.config.Checks;
import io.ricochet.internal.OptionalLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A server's TLS from PEM files: its certificate chain and private key (PKCS#8), and, for mutual TLS, the
 * CA certificates a client's certificate must chain to. TLS 1.3 and 1.2 only. A client certificate refused is
 * answered with the certificate alert that says why, on either provider ({@link ClientCertificateTrust}).
 *
 * @param certificateChain PEM certificates, the server's first
 * @param privateKey       PEM PKCS#8 private key of the first certificate
 * @param clientCa         PEM CA certificates that clients must present a certificate from; null for no client certificates
 * @param handshakeTimeout a handshake not finished by then closes the connection
 * @param provider         which TLS implementation
 * @param handshakesPerAddress handshakes at once from one source address; the rest wait their turn (see {@link Tls})
 * @param handshakeThreads the handshake loops, apart from the event loops that serve sessions; 0 means a quarter of
 *                         the cores, at least one
 */
public record ServerTlsConfig(Path certificateChain, Path privateKey, Path clientCa, Duration handshakeTimeout,
        TlsProvider provider, int handshakesPerAddress, int handshakeThreads) {
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    public ServerTlsConfig {
        Checks.notNull("certificateChain", certificateChain);
        Checks.notNull("privateKey", privateKey);
        Checks.positive("handshakeTimeout", handshakeTimeout);
        Checks.notNull("provider", provider);
        Checks.inRange("handshakesPerAddress", handshakesPerAddress, 1, 1 << 20);
        Checks.inRange("handshakeThreads", handshakeThreads, 0, 1024);
    }

    public static Builder builder(Path certificateChain, Path privateKey) {
        return new Builder(certificateChain, privateKey);
    }

    /**
     * Reads the files and builds the context. Fails with {@link IllegalArgumentException} naming the file
     * that cannot be read or parsed, or the provider that cannot load.
     */
    public Tls build() {
        SslProvider resolved = provider.resolve();
        SslContextBuilder builder;
        try (InputStream chain = open("certificateChain", certificateChain);
             InputStream key = open("privateKey", privateKey)) {
            builder = SslContextBuilder.forServer(chain, key);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("tls: certificateChain " + certificateChain + " and privateKey " + privateKey
                    + " (expected: a PEM certificate chain and its PEM PKCS#8 key): " + e.getMessage(), e);
        }
        if (clientCa != null) {
            try (InputStream ca = open("clientCa", clientCa)) {
                // On OpenSSL a refused client certificate must say why, or BoringSSL answers it with internal_error.
                if (resolved == SslProvider.OPENSSL) {
                    builder.trustManager(ClientCertificateTrust.of(ca));
                } else {
                    builder.trustManager(ca);
                }
                builder.clientAuth(ClientAuth.REQUIRE);
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("tls: clientCa " + clientCa + " (expected: PEM CA certificates): "
                        + e.getMessage(), e);
            }
        }
        try {
            SslContext context = builder.sslProvider(resolved).protocols(PROTOCOLS).build();
            return new Tls(context, handshakeTimeout, TlsProvider.tag(resolved), handshakesPerAddress, handshakeThreads);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("tls: cannot build a server context from " + certificateChain + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The same certificate, key and client CA, for QUIC: TLS 1.3, the only version QUIC has, with {@code alpn} as the
     * one application protocol a client must offer. Fails as {@link #build()} does. The provider is BoringSSL,
     * inside QUIC's native library, whatever {@link #provider} says. Clients may resume sessions; 0-RTT early data is
     * refused (see {@link #buildQuic(String, boolean)}).
     */
    public QuicSslContext buildQuic(String alpn) {
        return buildQuic(alpn, false);
    }

    /**
     * As {@link #buildQuic(String)}; with {@code acceptEarlyData} a resuming client's 0-RTT requests are read before
     * its handshake completes. Anyone who captured them can replay them, so accept early data only where every
     * request is safe to serve twice (an echo is).
     */
    public QuicSslContext buildQuic(String alpn, boolean acceptEarlyData) {
        OptionalLibrary.QUIC.require();
        Checks.notNull("alpn", alpn);
        requireReadable("certificateChain", certificateChain);
        requireReadable("privateKey", privateKey);
        try {
            QuicSslContextBuilder builder = QuicSslContextBuilder.forServer(privateKey.toFile(), null,
                    certificateChain.toFile()).applicationProtocols(alpn).earlyData(acceptEarlyData);
            if (clientCa != null) {
                builder.trustManager(clientCa.toFile()).clientAuth(ClientAuth.REQUIRE);
            }
            return builder.build();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("tls: cannot build a QUIC server context from " + certificateChain
                    + " and " + privateKey + " (expected: a PEM certificate chain and its PEM PKCS#8 key): "
                    + e.getMessage(), e);
        }
    }

    /** Fails with {@link IllegalArgumentException} naming the file when it cannot be read. */
    static void requireReadable(String field, Path file) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("tls: " + field + ": " + file + " is not a readable file");
        }
    }

    static InputStream open(String field, Path file) throws IOException {
        if (!Files.isReadable(file)) {
            throw new IOException(field + ": " + file + " is not a readable file");
        }
        return Files.newInputStream(file);
    }

    /** Fluent builder; {@link #build()} on the config validates and reads the files. */
    public static final class Builder extends TlsBuilder<Builder> {
        private final Path certificateChain;
        private final Path privateKey;
        private Path clientCa;
        private int handshakesPerAddress = Tls.DEFAULT_HANDSHAKES_PER_ADDRESS;
        private int handshakeThreads;

        private Builder(Path certificateChain, Path privateKey) {
            this.certificateChain = certificateChain;
            this.privateKey = privateKey;
        }

        /** Requires a client certificate that chains to one of these CA certificates (mutual TLS). */
        public Builder clientCa(Path clientCa) {
            this.clientCa = Checks.notNull("clientCa", clientCa);
            return this;
        }

        /** Handshakes at once from one source address (default 64); the rest wait their turn, no read asked of them. */
        public Builder handshakesPerAddress(int handshakesPerAddress) {
            this.handshakesPerAddress = handshakesPerAddress;
            return this;
        }

        /** Handshake loops, apart from the event loops (default 0: a quarter of the cores, at least one). */
        public Builder handshakeThreads(int handshakeThreads) {
            this.handshakeThreads = handshakeThreads;
            return this;
        }

        public ServerTlsConfig build() {
            return new ServerTlsConfig(certificateChain, privateKey, clientCa, handshakeTimeout, provider,
                    handshakesPerAddress, handshakeThreads);
        }
    }
}
