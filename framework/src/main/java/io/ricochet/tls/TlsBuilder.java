package io.ricochet.tls;

import java.time.Duration;

/** What the server's and the client's TLS config builders share: the handshake's time bound and the provider. */
abstract class TlsBuilder<B extends TlsBuilder<B>> {
    Duration handshakeTimeout = Tls.DEFAULT_HANDSHAKE_TIMEOUT;
    TlsProvider provider = TlsProvider.AUTO;

    /** How long a handshake may take before the connection is closed (default 10 s). */
    public B handshakeTimeout(Duration handshakeTimeout) {
        this.handshakeTimeout = handshakeTimeout;
        return self();
    }

    /** OpenSSL (BoringSSL), the JDK's, or {@code AUTO}: OpenSSL where it loads. */
    public B provider(TlsProvider provider) {
        this.provider = provider;
        return self();
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
