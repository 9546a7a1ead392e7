package io.ricochet.loadgen.engine;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.transport.client.FrameClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import javax.net.ssl.SSLException;

/** Times a connection's TLS or Noise handshake, from its TCP connect on, and counts and keeps a failed one. */
final class Handshakes {
    private Handshakes() {
    }

    /**
     * Called once the TCP connect of {@code ch} succeeded; a no-op without TLS or Noise. Runs on the channel's
     * event loop, once per connection.
     */
    static void time(Channel ch, RunStats stats) {
        Future<Channel> handshake = FrameClient.handshakeFuture(ch);
        if (handshake == null) {
            return;
        }
        boolean tls = ch.pipeline().get(SslHandler.class) != null;
        long connected = System.nanoTime();
        InetSocketAddress remote = (InetSocketAddress) ch.remoteAddress();
        handshake.addListener(f -> {
            if (f.isSuccess()) {
                stats.recordHandshakeTime(System.nanoTime() - connected);
                if (tls && stats.negotiated.get() == null) {
                    javax.net.ssl.SSLSession session = ch.pipeline().get(SslHandler.class).engine().getSession();
                    stats.negotiated.compareAndSet(null, session.getProtocol() + " " + session.getCipherSuite());
                }
            } else {
                stats.handshakeFailures.increment();
                stats.failed(tls ? failure(remote, f.cause()) : noiseFailure(remote, f.cause()));
            }
        });
    }

    /** One line that says what failed and the likeliest cause, not just the TLS engine's exception. */
    static SSLException failure(InetSocketAddress remote, Throwable cause) {
        return new SSLException("TLS handshake with " + where(remote) + " failed (does it serve TLS, and with a "
                + "certificate this client trusts?): " + cause, cause);
    }

    static IOException noiseFailure(InetSocketAddress remote, Throwable cause) {
        return new IOException("Noise handshake with " + where(remote) + " failed (is it a noise port, and --noise-key "
                + "its public key?): " + cause.getMessage(), cause);
    }

    private static String where(InetSocketAddress remote) {
        return remote == null ? "the server" : remote.getHostString() + ":" + remote.getPort();
    }
}
