package io.ricochet.transport.session;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last in a TLS connection's pipeline while it handshakes on a loop of the listener's handshake loops: when the
 * handshake succeeds, it moves the connection to one of the I/O loops (deregistered, then registered there), installs
 * the session's stages there, and hands them the connection as if it had just become active: the handshake's
 * completion, then whatever came after it before the move (data that rode in with the client's last flight, the end
 * of its input, a failure), in order. Then it leaves the pipeline. So a flood of ClientHellos costs the handshake
 * loops, never the loops that serve sessions, and a session's handlers all run on one loop from their first event. A
 * connection that closes before the handoff never gets stages: its close is counted here.
 */
final class TlsHandoffHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(TlsHandoffHandler.class);

    private final EventLoopGroup ioLoops;
    private final ConnectionStats stats;
    private final Consumer<Channel> stages;
    private ChannelHandlerContext ctx;
    /** The success event, held from the handshake's end to the handoff. */
    private SslHandshakeCompletionEvent succeeded;
    /** What came after the success before the handoff, in order: reads, events and {@link Failure}s. */
    private List<Object> held;
    private boolean handedOff;
    private boolean closeCounted;

    /** A failure caught before the handoff, passed on after it. */
    private record Failure(Throwable cause) {
    }

    /** An event fired before the handoff, passed on after it. */
    private record Event(Object evt) {
    }

    TlsHandoffHandler(EventLoopGroup ioLoops, ConnectionStats stats, Consumer<Channel> stages) {
        this.ioLoops = ioLoops;
        this.stats = stats;
        this.stages = stages;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // Passed on to the stages when they exist, on their loop.
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (succeeded != null) {
            hold(new Event(evt));
        } else if (evt instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
            succeeded = done;
            move(ctx.channel());
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    /** Off the handshake loop, onto an I/O loop; whatever happens on the way is answered here. */
    private void move(Channel ch) {
        ctx.deregister().addListener(off -> {
            if (!ch.isOpen()) {
                // Closed in the same turn of the loop: the pipeline was torn down, and handlerRemoved counted it.
                return;
            }
            if (!off.isSuccess()) {
                ch.close();
                return;
            }
            ioLoops.next().register(ch).addListener(on -> {
                if (!on.isSuccess()) {
                    abandon(ch, on.cause());
                }
            });
        });
    }

    /**
     * The I/O loop refused the connection (it is stopping): Netty closed it without events, so its pipeline is never
     * torn down; what it held is let go here.
     */
    private void abandon(Channel ch, Throwable cause) {
        log.debug("closing {}: its tls handoff failed: {}", ch.remoteAddress(), String.valueOf(cause));
        stats.closing(CloseReason.SHUTDOWN);
        countClose();
        releaseHeld();
        SslHandler ssl = ch.pipeline().get(SslHandler.class);
        if (ssl != null) {
            ReferenceCountUtil.release(ssl.engine());
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // Only after the success: the SslHandler passes on no data before its handshake ends.
        hold(msg);
    }

    private void hold(Object o) {
        if (held == null) {
            held = new ArrayList<>(2);
        }
        held.add(o);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // One is fired with the held data after the handoff.
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (succeeded != null) {
            hold(new Failure(cause));
            return;
        }
        // Before the handshake ended there is no session to serve or drain: a reset, or a failure past the TLS guard,
        // ends it.
        if (cause instanceof IOException) {
            log.debug("closing {} in its tls handshake: {}", ctx.channel().remoteAddress(), cause.toString());
            stats.closing(CloseReason.PEER);
        } else {
            log.warn("closing {} in its tls handshake: unexpected failure", ctx.channel().remoteAddress(), cause);
            stats.closing(CloseReason.ERROR);
        }
        ctx.close();
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) {
        // Leaving the handshake loop: nothing downstream to tell.
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        if (succeeded == null || handedOff || !ctx.channel().isActive()) {
            return;
        }
        // On the I/O loop now: the stages start here, and see the connection from its start.
        handedOff = true;
        stages.accept(ctx.channel());
        ctx.fireChannelRegistered();
        ctx.fireChannelActive();
        ctx.fireUserEventTriggered(succeeded);
        List<Object> after = held;
        held = null;
        boolean read = false;
        if (after != null) {
            for (Object o : after) {
                if (o instanceof Event event) {
                    ctx.fireUserEventTriggered(event.evt());
                } else if (o instanceof Failure failure) {
                    ctx.fireExceptionCaught(failure.cause());
                } else {
                    read = true;
                    ctx.fireChannelRead(o);
                }
            }
        }
        if (read) {
            ctx.fireChannelReadComplete();
        }
        ctx.pipeline().remove(this);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!handedOff) {
            countClose();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (!handedOff) {
            // Torn down with the channel before its stages existed (they count a close): counted here.
            countClose();
        }
        releaseHeld();
    }

    private void countClose() {
        if (!closeCounted) {
            closeCounted = true;
            stats.publish();
            stats.counters().closed(stats.closeReason());
        }
    }

    private void releaseHeld() {
        List<Object> after = held;
        held = null;
        if (after != null) {
            for (Object o : after) {
                if (o instanceof Event event) {
                    ReferenceCountUtil.release(event.evt());
                } else if (!(o instanceof Failure)) {
                    ReferenceCountUtil.release(o);
                }
            }
        }
    }
}
