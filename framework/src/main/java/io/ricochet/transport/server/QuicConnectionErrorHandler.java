package io.ricochet.transport.server;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.quic.QuicChannel;
import io.ricochet.internal.RateLimitedLog;
import io.ricochet.metrics.ProtocolErrorKind;
import io.ricochet.metrics.TransportCounters;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last in each QUIC connection's pipeline: a failure of the connection, such as a handshake without Ricochet's ALPN
 * or with a certificate refused, is counted ({@code ricochet.protocol.errors{kind=tls}} for a TLS failure) and logged
 * in one line, at most once per {@value #LOG_INTERVAL_SECONDS} s for the listener. Netty would log each
 * at the tail of the pipeline as a WARN with a stack trace of some 25 lines, and anyone who can send a datagram can
 * start a handshake. One instance per listener: its connections all live on the listener's one event loop, so the
 * rate-limited log needs no lock.
 */
@Sharable
final class QuicConnectionErrorHandler extends ChannelInboundHandlerAdapter {
    static final long LOG_INTERVAL_SECONDS = 10;
    private static final Logger log = LoggerFactory.getLogger(QuicConnectionErrorHandler.class);

    private final TransportCounters counters;
    private final RateLimitedLog warnings = new RateLimitedLog(log, TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS));

    QuicConnectionErrorHandler(TransportCounters counters) {
        this.counters = counters;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        boolean tls = isTlsFailure(cause);
        if (tls) {
            counters.protocolErrors(ProtocolErrorKind.TLS, 1);
        }
        // Not closed here: quiche is already ending the connection, and a close now would free it before the
        // CONNECTION_CLOSE that tells the client why is sent, leaving the client to time out.
        SocketAddress peer = ctx.channel() instanceof QuicChannel quic ? quic.remoteSocketAddress()
                : ctx.channel().remoteAddress();
        warnings.warn(ctx.executor().ticker().nanoTime(), "quic: connection from " + peer
                + (tls ? " failed its handshake" : " failed"), cause);
    }

    private static boolean isTlsFailure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }
}
