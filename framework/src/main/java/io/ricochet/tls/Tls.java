package io.ricochet.tls;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;
import io.ricochet.config.Checks;
import io.ricochet.config.HandshakeThreads;
import java.time.Duration;

/**
 * A built TLS context and the bound on its handshakes: what a server or client runs TLS with. Make one
 * from {@link ServerTlsConfig#build()} or {@link ClientTlsConfig#build()}, or from an {@link SslContext} of
 * one's own with {@link #of}. Made with a server's context on the JDK provider, it sets
 * {@code jdk.tls.rejectClientInitiatedRenegotiation} (unless set already), so that a client's renegotiation is refused
 * as BoringSSL refuses it.
 *
 * <p>A server runs its handshakes on {@code handshakeThreads} event loops of their own, at most
 * {@code handshakesPerAddress} at once from one source address (the rest wait their turn, no read asked of them), and
 * moves each connection to the loops that serve sessions when its handshake succeeds: a flood of ClientHellos takes
 * at most those threads' CPU from the sessions. A client ignores both.
 *
 * <pre>{@code
 * Tls tls = ServerTlsConfig.builder(chain, key).handshakesPerAddress(32).build().build();
 * Tls own = Tls.of(sslContext).withHandshakes(32, 1);
 * }</pre>
 *
 * @param context              server or client context, per the side it is given to
 * @param handshakeTimeout     a connection whose handshake has not finished by then is closed and counted; a
 *                             connection waiting for its turn is timed from its accept too
 * @param provider             {@code openssl} or {@code jdk}, as logged and tagged
 * @param handshakesPerAddress a server's handshakes at once from one source (an IPv4 address, or an IPv6 /64)
 * @param handshakeThreads     a server's handshake loops; 0 means a quarter of the cores, at least one
 */
public record Tls(SslContext context, Duration handshakeTimeout, String provider, int handshakesPerAddress,
        int handshakeThreads) {
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Enough for a load generator on one host to keep a handshake loop busy (each waits a round trip for the
     * client's answer), few enough that another source's handshake waits behind at most this many of a flood's.
     */
    public static final int DEFAULT_HANDSHAKES_PER_ADDRESS = 64;

    public Tls {
        Checks.notNull("context", context);
        Checks.positive("handshakeTimeout", handshakeTimeout);
        Checks.notNull("provider", provider);
        Checks.inRange("handshakesPerAddress", handshakesPerAddress, 1, 1 << 20);
        Checks.inRange("handshakeThreads", handshakeThreads, 0, 1024);
        if (context.isServer() && context instanceof JdkSslContext) {
            // Before the context's first handshake, which is when the JDK reads its switch.
            JdkRenegotiation.refuseClientInitiated();
        }
    }

    /** TLS with the default handshake bounds per address and threads. */
    public Tls(SslContext context, Duration handshakeTimeout, String provider) {
        this(context, handshakeTimeout, provider, DEFAULT_HANDSHAKES_PER_ADDRESS, 0);
    }

    /** TLS with a context built elsewhere, and the default handshake timeout and bounds. */
    public static Tls of(SslContext context) {
        return new Tls(context, DEFAULT_HANDSHAKE_TIMEOUT, TlsProvider.tag(providerOf(context)));
    }

    /** This TLS with a server's handshakes at once per source address, and its handshake loops (0: a quarter of the cores). */
    public Tls withHandshakes(int handshakesPerAddress, int handshakeThreads) {
        return new Tls(context, handshakeTimeout, provider, handshakesPerAddress, handshakeThreads);
    }

    /** The handshake loops a server runs: {@link #handshakeThreads}, or a quarter of the cores, at least one. */
    public int resolvedHandshakeThreads() {
        return HandshakeThreads.resolve(handshakeThreads);
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
