package io.ricochet.transport.session;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.ProtocolErrorKind;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Right behind the {@code SslHandler}: a failed handshake (bytes that are not TLS, a certificate refused,
 * the handshake timeout) or a record that fails its check is counted once as a TLS protocol error and
 * closes the connection at once, since nothing more can be said on it securely. Other failures pass on.
 */
final class TlsGuardHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(TlsGuardHandler.class);

    private final ConnectionStats stats;
    private boolean failed;

    TlsGuardHandler(ConnectionStats stats) {
        this.stats = stats;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            fail(ctx, done.cause());
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (isTlsFailure(cause)) {
            fail(ctx, cause);
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        if (!failed) {
            failed = true;
            stats.protocolError(ProtocolErrorKind.TLS);
            stats.closing(CloseReason.PROTOCOL_ERROR);
            log.debug("closing {}: tls: {}", ctx.channel().remoteAddress(), cause == null ? "failed" : cause.toString());
        }
        ctx.close();
    }

    private static boolean isTlsFailure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SSLException || t instanceof NotSslRecordException) {
                return true;
            }
        }
        return false;
    }
}
