package io.ricochet.transport.session;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.ricochet.handler.SourceAddress;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import java.util.concurrent.RejectedExecutionException;

/**
 * First in a TLS connection's pipeline until its handshake ends: it asks for nothing to be read from the peer until the
 * peer's source has a {@linkplain HandshakeTurns turn} free, so a ClientHello costs the server nothing while it waits;
 * then it gives the turn back when the handshake ends, however it ends, and leaves the pipeline. A connection that
 * waits past the handshake timeout is closed by the {@link SslHandler}'s timer, as a slow handshake is. A peer that ends
 * its input before its handshake ends can never finish it: it is closed at once, and what it sent unread (epoll and
 * io_uring read a peer's last bytes with its FIN, asked or not) goes to no handshake.
 */
final class HandshakeTurnHandler extends ChannelDuplexHandler implements Runnable {
    private enum State { NEW, WAITING, HOLDING, DONE }

    private final HandshakeTurns turns;
    private final ConnectionStats stats;
    private ChannelHandlerContext ctx;
    private Object source;
    private State state = State.NEW;
    /** A read asked for while waiting: done when the turn comes. */
    private boolean readPending;

    HandshakeTurnHandler(HandshakeTurns turns, ConnectionStats stats) {
        this.turns = turns;
        this.stats = stats;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        source = SourceAddress.of(ctx.channel().remoteAddress());
        state = turns.take(source, this) ? State.HOLDING : State.WAITING;
        ctx.pipeline().get(SslHandler.class).handshakeFuture().addListener(f -> ended());
        ctx.fireChannelActive();
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (state == State.WAITING) {
            readPending = true;
        } else {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (state == State.WAITING) {
            // Read without asking, with the peer's FIN: a handshake that cannot finish, and no turn of its own.
            ReferenceCountUtil.release(msg);
            peerGone(ctx);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent && state != State.DONE) {
            peerGone(ctx);
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void peerGone(ChannelHandlerContext ctx) {
        stats.closing(CloseReason.PEER);
        ctx.close();
    }

    /** The turn is this connection's: given by whoever gave one back, on any thread. */
    @Override
    public void run() {
        try {
            ctx.executor().execute(this::turnCame);
        } catch (RejectedExecutionException e) {
            // The loop has stopped, and the connection with it.
            turns.release(source);
        }
    }

    private void turnCame() {
        if (state != State.WAITING) {
            // The handshake ended while the turn was on its way; ended() gave it back.
            return;
        }
        state = State.HOLDING;
        if (readPending) {
            readPending = false;
            ctx.read();
        }
    }

    /** The handshake succeeded, failed or timed out, or the connection closed: on the connection's event loop. */
    private void ended() {
        if (state == State.HOLDING) {
            turns.release(source);
        } else if (state == State.WAITING && !turns.withdraw(source, this)) {
            // Given a turn that has not arrived yet: give it on.
            turns.release(source);
        }
        state = State.DONE;
        if (ctx.channel().isOpen()) {
            ctx.pipeline().remove(this);
        }
    }
}
