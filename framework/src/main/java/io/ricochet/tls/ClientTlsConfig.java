package io.ricochet.tls;

import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.ricochet.config.Checks;
import io.ricochet.internal.OptionalLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A client's TLS: whom it trusts (PEM CA certificates, the JDK's default trust store, or, for tests against
 * a self-signed server only, anyone), and for mutual TLS its own certificate and key. The server's name
 * or address is checked against its certificate unless {@code insecure}.
 *
 * @param trustedCa        PEM CA certificates the server's certificate must chain to; null for the JDK's defaults
 * @param insecure         trust any certificate and skip the name check: encryption without authentication
 * @param certificateChain PEM client certificate chain for mutual TLS, or null
 * @param privateKey       its PEM PKCS#8 key, or null
 * @param handshakeTimeout a handshake not finished by then fails the connection
 * @param provider         which TLS implementation
 * @param keyBits          AES-GCM key length to offer only, 128 or 256; 0 for the provider's defaults. BoringSSL
 *                         (the OpenSSL provider) cannot restrict TLS 1.3 suites, so with it the client offers TLS 1.2
 *                         only, whose ECDHE AES-GCM suites it can restrict
 */
public record ClientTlsConfig(Path trustedCa, boolean insecure, Path certificateChain, Path privateKey,
        Duration handshakeTimeout, TlsProvider provider, int keyBits) {
    private static final List<String> AES_128_GCM = List.of("TLS_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
    private static final List<String> AES_256_GCM = List.of("TLS_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");

    public ClientTlsConfig {
        if (insecure && trustedCa != null) {
            throw new IllegalArgumentException("tls: trustedCa " + trustedCa + " with insecure (expected: one or the other)");
        }
        if ((certificateChain == null) != (privateKey == null)) {
            throw new IllegalArgumentException("tls: certificateChain " + certificateChain + ", privateKey " + privateKey
                    + " (expected: both or neither)");
        }
        Checks.positive("handshakeTimeout", handshakeTimeout);
        Checks.notNull("provider", provider);
        if (keyBits != 0 && keyBits != 128 && keyBits != 256) {
            throw new IllegalArgumentException("tls: keyBits " + keyBits + " (expected: 128, 256, or 0 for any)");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Reads the files and builds the context; fails with {@link IllegalArgumentException} naming what is wrong. */
    public Tls build() {
        SslProvider resolved = provider.resolve();
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(resolved).protocols(ServerTlsConfig.PROTOCOLS);
        if (keyBits != 0) {
            builder.ciphers(keyBits == 128 ? AES_128_GCM : AES_256_GCM);
            if (resolved != SslProvider.JDK) {
                builder.protocols("TLSv1.2");
            }
        }
        if (insecure) {
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
        } else if (trustedCa != null) {
            try (InputStream ca = ServerTlsConfig.open("trustedCa", trustedCa)) {
                builder.trustManager(ca);
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("tls: trustedCa " + trustedCa + " (expected: PEM CA certificates): "
                        + e.getMessage(), e);
            }
        }
        if (certificateChain != null) {
            try (InputStream chain = ServerTlsConfig.open("certificateChain", certificateChain);
                 InputStream key = ServerTlsConfig.open("privateKey", privateKey)) {
                builder.keyManager(chain, key);
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("tls: certificateChain " + certificateChain + " and privateKey "
                        + privateKey + " (expected: a PEM certificate chain and its PEM PKCS#8 key): " + e.getMessage(), e);
            }
        }
        try {
            SslContext context = builder.build();
            return new Tls(context, handshakeTimeout, TlsProvider.tag(resolved));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("tls: cannot build a client context: " + e.getMessage(), e);
        }
    }

    /**
     * The same trust and client certificate, for QUIC: TLS 1.3, offering {@code alpn}, resuming earlier sessions
     * ({@link QuicResumption#RESUME}). {@code keyBits} does not apply (QUIC's suites are BoringSSL's), nor
     * {@link #provider}. Fails as {@link #build()} does.
     */
    public QuicSslContext buildQuic(String alpn) {
        return buildQuic(alpn, QuicResumption.RESUME);
    }

    /** As {@link #buildQuic(String)}, with the session tickets used as {@code resumption} says. */
    public QuicSslContext buildQuic(String alpn, QuicResumption resumption) {
        OptionalLibrary.QUIC.require();
        Checks.notNull("alpn", alpn);
        Checks.notNull("resumption", resumption);
        QuicSslContextBuilder builder = QuicSslContextBuilder.forClient().applicationProtocols(alpn);
        switch (resumption) {
            // A cache of size 0 drops each ticket as it arrives.
            case NEVER -> builder.sessionCacheSize(0);
            case RESUME -> { }
            case EARLY_DATA -> builder.earlyData(true);
        }
        if (insecure) {
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
        } else if (trustedCa != null) {
            ServerTlsConfig.requireReadable("trustedCa", trustedCa);
            builder.trustManager(trustedCa.toFile());
        }
        if (certificateChain != null) {
            ServerTlsConfig.requireReadable("certificateChain", certificateChain);
            ServerTlsConfig.requireReadable("privateKey", privateKey);
            builder.keyManager(privateKey.toFile(), null, certificateChain.toFile());
        }
        try {
            return builder.build();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("tls: cannot build a QUIC client context: " + e.getMessage(), e);
        }
    }

    /** Fluent builder; trusts the JDK's default CAs unless told otherwise. */
    public static final class Builder extends TlsBuilder<Builder> {
        private Path trustedCa;
        private boolean insecure;
        private Path certificateChain;
        private Path privateKey;
        private int keyBits;

        private Builder() {
        }

        public Builder trustedCa(Path trustedCa) {
            this.trustedCa = Checks.notNull("trustedCa", trustedCa);
            return this;
        }

        /** Trusts any server: for tests and local runs against a self-signed certificate, never in production. */
        public Builder insecure() {
            this.insecure = true;
            return this;
        }

        /** The client's own certificate, for a server that requires mutual TLS. */
        public Builder clientCertificate(Path certificateChain, Path privateKey) {
            this.certificateChain = Checks.notNull("certificateChain", certificateChain);
            this.privateKey = Checks.notNull("privateKey", privateKey);
            return this;
        }

        /** Offers only the AES-GCM suites of this key length, 128 or 256 (see the record's {@code keyBits}). */
        public Builder keyBits(int keyBits) {
            this.keyBits = keyBits;
            return this;
        }

        public ClientTlsConfig build() {
            return new ClientTlsConfig(trustedCa, insecure, certificateChain, privateKey, handshakeTimeout, provider,
                    keyBits);
        }
    }
}
