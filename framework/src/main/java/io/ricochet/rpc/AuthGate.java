package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.ricochet.config.Durations;
import io.ricochet.internal.RateLimitedLog;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may use one RPC server, shared by all its connections: its {@link RpcAuthenticator}, how long a connection
 * has to authenticate, and the warnings for peers refused. Those go out at most one line per
 * {@link #LOG_INTERVAL_SECONDS}, which counts the ones it stands for, as failed accepts are: each refused peer
 * wrote a line, so anyone who could connect could fill the server's disk. Thread-safe.
 */
final class AuthGate {
    static final long LOG_INTERVAL_SECONDS = 10;
    private static final Logger log = LoggerFactory.getLogger(AuthGate.class);

    private final RpcAuthenticator authenticator;
    private final Duration timeout;
    private final RateLimitedLog refusals = new RateLimitedLog(log, TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS));

    /** @param timeout how long after it opens a connection may go unauthenticated before it is closed */
    AuthGate(RpcAuthenticator authenticator, Duration timeout) {
        this.authenticator = authenticator;
        this.timeout = timeout;
    }

    boolean accepts(ByteString credential) {
        return authenticator.accepts(credential);
    }

    /** Tells the authenticator of a request refused because its connection has not authenticated. */
    void refused(String method, SocketAddress peer) {
        authenticator.refused(method, peer);
    }

    long timeoutNanos() {
        return timeout.toNanos();
    }

    String timeoutText() {
        return Durations.format(timeout);
    }

    /** A warning that {@code peer} was refused, and why; rate-limited over the whole server. */
    void logRefusal(SocketAddress peer, String why) {
        refusals.warn(System.nanoTime(), "refused " + peer + ": " + why);
    }
}
