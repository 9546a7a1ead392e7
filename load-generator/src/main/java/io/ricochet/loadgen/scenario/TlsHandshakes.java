package io.ricochet.loadgen.scenario;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.ricochet.loadgen.stats.RunStats;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLException;

/** Times a connection's TLS handshake, from its TCP connect on, and counts and keeps a failed one. */
final class TlsHandshakes {
    private TlsHandshakes() {
    }

    /**
     * Called once the TCP connect of {@code ch} succeeded; a no-op without TLS. Runs on the channel's
     * event loop, once per connection.
     */
    static void time(Channel ch, RunStats stats, AtomicReference<Throwable> firstFailure) {
        SslHandler ssl = ch.pipeline().get(SslHandler.class);
        if (ssl == null) {
            return;
        }
        long connected = System.nanoTime();
        InetSocketAddress remote = (InetSocketAddress) ch.remoteAddress();
        ssl.handshakeFuture().addListener(f -> {
            if (f.isSuccess()) {
                stats.recordHandshakeTime(System.nanoTime() - connected);
            } else {
                stats.handshakeFailures.increment();
                firstFailure.compareAndSet(null, failure(remote, f.cause()));
            }
        });
    }

    /** One line that says what failed and the likeliest cause, not just the TLS engine's exception. */
    static SSLException failure(InetSocketAddress remote, Throwable cause) {
        String where = remote == null ? "the server" : remote.getHostString() + ":" + remote.getPort();
        return new SSLException("TLS handshake with " + where + " failed (does it serve TLS, and with a certificate "
                + "this client trusts?): " + cause, cause);
    }
}
