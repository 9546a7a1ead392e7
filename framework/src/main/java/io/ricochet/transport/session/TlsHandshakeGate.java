package io.ricochet.transport.session;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import io.ricochet.handler.HandshakeSlots;
import io.ricochet.handler.SourceAddress;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.HandshakeCounters;
import io.ricochet.metrics.HandshakeShedReason;

/**
 * In front of a TLS connection's {@code SslHandler}: takes one of the listener's places for handshakes in progress when
 * the first bytes (the ClientHello) arrive, and gives it back when the handshake ends, or the connection does. Without
 * a place (the listener's bound, or its source's, is reached) the connection is closed before the SslHandler reads the
 * ClientHello, so a flood from one address costs no key agreement past its share; counted as {@code reason=limit} and
 * as a handshake shed. A socket that sends nothing holds no place: the handshake timeout ends it.
 */
final class TlsHandshakeGate extends ChannelInboundHandlerAdapter {
    private final HandshakeSlots slots;
    private final HandshakeCounters counters;
    private final ConnectionStats stats;
    /** The source holding a place, or null: none taken yet, or given back. */
    private Object holding;
    /** Whether the first read has come, and the place been asked for. */
    private boolean decided;
    /** Refused a place: what else the read brings is dropped, the connection closing. */
    private boolean shed;

    TlsHandshakeGate(HandshakeSlots slots, HandshakeCounters counters, ConnectionStats stats) {
        this.slots = slots;
        this.counters = counters;
        this.stats = stats;
    }

    /** The first bytes (a ClientHello) take a place, before the SslHandler sees them: an idle socket holds none. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (shed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!decided) {
            decided = true;
            Object source = SourceAddress.of(ctx.channel().remoteAddress());
            HandshakeShedReason refused = slots.acquire(source);
            if (refused != null) {
                shed = true;
                ReferenceCountUtil.release(msg);
                counters.shed(refused);
                stats.closing(CloseReason.LIMIT);
                ctx.close();
                return;
            }
            holding = source;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        ctx.fireUserEventTriggered(evt);
        if (evt instanceof SslHandshakeCompletionEvent) {
            release();
            ctx.pipeline().remove(this);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        release();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        release();
    }

    private void release() {
        if (holding != null) {
            slots.release(holding);
            holding = null;
        }
    }
}
