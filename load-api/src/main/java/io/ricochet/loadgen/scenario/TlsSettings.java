package io.ricochet.loadgen.scenario;

import java.nio.file.Path;

/**
 * The client side of TLS in a {@link Scenario} ({@code tls:} in a scenario file). QUIC always runs TLS 1.3 and takes
 * the trust settings ({@code ca}, {@code insecure}) without {@code enabled}.
 *
 * <pre>{@code
 * TlsSettings tls = new TlsSettings(true, Path.of("server.crt"), false, null, null, "auto", false, false);
 * }</pre>
 *
 * @param enabled    connect over TLS (TCP)
 * @param ca         PEM CAs the server's certificate must chain to, or null for the JDK's trust store
 * @param insecure   trust any certificate and skip the name check (tests only)
 * @param clientCert PEM client certificate chain for mutual TLS, or null
 * @param clientKey  its PEM PKCS#8 key, or null
 * @param provider   {@code auto}, {@code openssl} or {@code jdk}
 * @param resume     with a connection per request, resume earlier sessions rather than a full handshake each
 * @param earlyData  over QUIC, resume and send each request as 0-RTT early data
 */
public record TlsSettings(boolean enabled, Path ca, boolean insecure, Path clientCert, Path clientKey, String provider,
        boolean resume, boolean earlyData) {
    /** No TLS, the JDK's trust, the provider's choice. */
    public static final TlsSettings OFF = new TlsSettings(false, null, false, null, null, "auto", false, false);

    public TlsSettings {
        provider = provider == null ? "auto" : provider;
    }









    /** Whether the client brings its own trust (a CA file or none at all), so an embedded server's CA is not needed. */
    public boolean trustGiven() {
        return ca != null || insecure;
    }
}
