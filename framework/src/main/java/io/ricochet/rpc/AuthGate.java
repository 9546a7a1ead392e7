package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.ricochet.config.Durations;
import io.ricochet.handler.SourceAddress;
import io.ricochet.internal.RateLimitedLog;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may use one RPC server, shared by all its connections: its {@link RpcAuthenticator}, how long a connection
 * has to authenticate, the connections waiting to, and the warnings for peers refused. Those go out at most one line
 * per {@link #LOG_INTERVAL_SECONDS}, which counts the ones it stands for, as failed accepts are: each refused peer
 * wrote a line, so anyone who could connect could fill the server's disk.
 *
 * <p>The connections waiting to authenticate are bounded ({@link RpcConfig#maxUnauthenticated}, and per source address
 * {@link RpcConfig#maxUnauthenticatedPerAddress}); past a bound a new one displaces the one that has waited longest,
 * of its own address first. Refusing the new one instead would let strangers who connect and wait keep out a client
 * that authenticates as soon as it connects: a crowd of 40 kept a distributed run's workers out. Thread-safe.
 */
final class AuthGate {
    static final long LOG_INTERVAL_SECONDS = 10;
    private static final Logger log = LoggerFactory.getLogger(AuthGate.class);

    private final RpcAuthenticator authenticator;
    private final Duration timeout;
    private final RateLimitedLog refusals = new RateLimitedLog(log, TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS));
    private final int maxWaiting;
    private final int maxWaitingPerSource;
    /** The connections waiting to authenticate, longest waiting first, and how many each source has among them. */
    private final LinkedHashMap<Object, Waiting> waiting = new LinkedHashMap<>();
    private final Map<Object, Integer> waitingBySource = new HashMap<>();

    /** A connection waiting to authenticate: its source, and what closes it if it is displaced. */
    private record Waiting(Object source, Runnable displace) {
    }

    /** With {@code config}'s {@link RpcConfig#authTimeout} and bounds on the connections waiting. */
    AuthGate(RpcAuthenticator authenticator, RpcConfig config) {
        this.authenticator = authenticator;
        this.timeout = config.authTimeout();
        this.maxWaiting = config.maxUnauthenticated();
        this.maxWaitingPerSource = config.maxUnauthenticatedPerAddress();
    }

    /**
     * {@code connection}, from {@code peer}, waits to authenticate; if a bound is full, the longest waiting of its
     * source, else of all, is displaced: its {@code displace} runs, here, outside the lock.
     */
    void waiting(Object connection, SocketAddress peer, Runnable displace) {
        Object source = SourceAddress.of(peer);
        Waiting displaced = null;
        synchronized (this) {
            Object oldest = null;
            if (waitingBySource.getOrDefault(source, 0) >= maxWaitingPerSource) {
                for (Map.Entry<Object, Waiting> e : waiting.entrySet()) {
                    if (Objects.equals(e.getValue().source(), source)) {
                        oldest = e.getKey();
                        break;
                    }
                }
            } else if (waiting.size() >= maxWaiting) {
                oldest = waiting.keySet().iterator().next();
            }
            if (oldest != null) {
                displaced = remove(oldest);
            }
            waiting.put(connection, new Waiting(source, displace));
            waitingBySource.merge(source, 1, Integer::sum);
        }
        if (displaced != null) {
            displaced.displace().run();
        }
    }

    /** {@code connection} no longer waits: it authenticated, or closed. */
    synchronized void waited(Object connection) {
        remove(connection);
    }

    private Waiting remove(Object connection) {
        Waiting w = waiting.remove(connection);
        if (w != null) {
            waitingBySource.computeIfPresent(w.source(), (s, n) -> n == 1 ? null : n - 1);
        }
        return w;
    }

    /** Tells the authenticator of a connection closed before it authenticated. */
    void dropped(SocketAddress peer, String why) {
        authenticator.dropped(peer, why);
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
