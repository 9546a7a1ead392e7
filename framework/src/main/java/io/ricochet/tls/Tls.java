package io.ricochet.tls;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;
import io.ricochet.config.Checks;
import java.time.Duration;

/**
 * A built TLS context and the bound on its handshakes: what a server or client runs TLS with. Make one
 * from {@link ServerTlsConfig#build()} or {@link ClientTlsConfig#build()}, or from an {@link SslContext} of
 * one's own with {@link #of}. Made with a server's context on the JDK provider, it sets
 * {@code jdk.tls.rejectClientInitiatedRenegotiation} (unless set already), so that a client's renegotiation is refused
 * as BoringSSL refuses it.
 *
 * @param context          server or client context, per the side it is given to
 * @param handshakeTimeout a connection whose handshake has not finished by then is closed and counted
 * @param provider         {@code openssl} or {@code jdk}, as logged and tagged
 */
public record Tls(SslContext context, Duration handshakeTimeout, String provider) {
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    public Tls {
        Checks.notNull("context", context);
        Checks.positive("handshakeTimeout", handshakeTimeout);
        Checks.notNull("provider", provider);
        if (context.isServer() && context instanceof JdkSslContext) {
            // Before the context's first handshake, which is when the JDK reads its switch.
            JdkRenegotiation.refuseClientInitiated();
        }
    }

    /** TLS with a context built elsewhere, and the default handshake timeout. */
    public static Tls of(SslContext context) {
        return new Tls(context, DEFAULT_HANDSHAKE_TIMEOUT, TlsProvider.tag(providerOf(context)));
    }

    /** This TLS, checked to be a server's: a client context there would fail every handshake. */
    public Tls serverSide() {
        if (!context.isServer()) {
            throw new IllegalArgumentException("tls: a client context (expected: a server context)");
        }
        return this;
    }

    /** This TLS, checked to be a client's. */
    public Tls clientSide() {
        if (context.isServer()) {
            throw new IllegalArgumentException("tls: a server context (expected: a client context)");
        }
        return this;
    }

    private static SslProvider providerOf(SslContext context) {
        return context instanceof JdkSslContext ? SslProvider.JDK : SslProvider.OPENSSL;
    }
}
