package io.ricochet.transport.session;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The end of a TCP connection that owes replies, as nginx's {@code lingering_close}: flush the replies owed, shut the
 * output down (FIN), then let the peer's input be read and discarded until its end of stream, or until it has sent
 * nothing for the linger timeout, and only then close. Closing a socket with unread input makes the kernel send a
 * reset, which drops what it has not yet sent and, at the peer, what has arrived but not been read: a plain close
 * loses replies already written. A peer that keeps sending after the FIN is cut off by the idle timeout, which still
 * runs.
 *
 * <p>Only the mechanics: when to begin is {@link TcpSessionHandler}'s, and serving nothing more
 * {@link TcpFrameSession}'s. Made when a close begins, so an idle connection holds none. Event-loop confined.
 */
final class LingeringClose {
    private final LingerTimeouts timeouts;
    private final ChannelHandlerContext ctx;
    private boolean lingering;
    private long lastInputNanos;
    private Future<?> lingerTimer;
    private Future<?> closeDeadline;

    /** @param ctx the session handler's context */
    LingeringClose(LingerTimeouts timeouts, ChannelHandlerContext ctx) {
        this.timeouts = timeouts;
        this.ctx = ctx;
    }

    /**
     * Flushes, shuts the output down and lingers. Called once per connection, after input has been set to be
     * discarded; reading goes on (also where backpressure paused it), or a peer blocked writing to us would never
     * read our replies.
     */
    void begin() {
        ctx.channel().config().setAutoRead(true);
        if (timeouts.maxCloseNanos() > 0) {
            closeDeadline = ctx.executor().schedule(() -> {
                ctx.close();
            }, timeouts.maxCloseNanos(), TimeUnit.NANOSECONDS);
        }
        // An empty write completes after every earlier write has reached the socket.
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed -> {
            // Where the peer has ended its stream already, its end leaves nothing to lose: close.
            if (!flushed.isSuccess() || !(ctx.channel() instanceof DuplexChannel duplex) || duplex.isInputShutdown()) {
                ctx.close();
                return;
            }
            SslHandler tls = ctx.pipeline().get(SslHandler.class);
            // TLS ends with close_notify before the FIN, so the peer can tell the end from a truncation.
            ChannelFuture notified = tls == null ? ctx.newSucceededFuture() : tls.closeOutbound();
            notified.addListener(ignored -> duplex.shutdownOutput().addListener(shut -> {
                if (!shut.isSuccess()) {
                    ctx.close();
                } else if (ctx.channel().isOpen()) {
                    lingering = true;
                    lastInputNanos = ctx.executor().ticker().nanoTime();
                    lingerTimer = ctx.executor().schedule(this::lingerCheck, timeouts.lingerNanos(),
                            TimeUnit.NANOSECONDS);
                }
            }));
        });
    }

    /** Input read and discarded while closing: the peer is still there. */
    void inputSeen() {
        lastInputNanos = ctx.executor().ticker().nanoTime();
    }

    /** Whether the output is shut and the peer's input is being discarded: its end of stream leaves nothing to lose. */
    boolean isLingering() {
        return lingering;
    }

    /** The channel has closed: the timers have nothing left to do. */
    void closed() {
        if (lingerTimer != null) {
            lingerTimer.cancel(false);
        }
        if (closeDeadline != null) {
            closeDeadline.cancel(false);
        }
    }

    /** Closes once the peer has been quiet for the linger timeout; re-armed for the remainder otherwise. */
    private void lingerCheck() {
        long quiet = ctx.executor().ticker().nanoTime() - lastInputNanos;
        if (quiet >= timeouts.lingerNanos()) {
            ctx.close();
        } else if (ctx.channel().isOpen()) {
            lingerTimer = ctx.executor().schedule(this::lingerCheck, timeouts.lingerNanos() - quiet,
                    TimeUnit.NANOSECONDS);
        }
    }
}
