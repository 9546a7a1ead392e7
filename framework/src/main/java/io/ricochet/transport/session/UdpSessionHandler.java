package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Ticker;
import io.ricochet.codec.FrameHeader;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.ProtocolErrorKind;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves every UDP peer of one datagram channel. Each datagram must be exactly one frame; malformed
 * ones are counted and dropped without reply. Valid ones create or refresh the peer's session (up to a
 * cap), go to the {@link FrameHandler}, and their replies are flushed once per read batch. A reply is framed in
 * place only if it is the datagram being handled, answered before its handler returns, or a body from
 * {@link FrameSession#allocateBody}; any other reply is copied, after its length, into a datagram of its own.
 * A periodic sweep on the channel's event loop expires idle sessions. Errors are logged and serving goes on: one
 * channel serves every peer the kernel gives it. Several channels may share a port ({@code SO_REUSEPORT}), each with
 * its own table on its own event loop and one session cap between them.
 */
final class UdpSessionHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(UdpSessionHandler.class);
    private static final long MIN_SWEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_SWEEP_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Supplier<FrameHandler> handlers;
    private final ConnectionStats stats;
    private final int width;
    private final int maxBody;
    private final long idleNanos;
    /** Shared by every UDP channel of the port: the cap holds across them. */
    private final ConnectionBudget sessionBudget;
    private final Map<InetSocketAddress, UdpSession> sessions = new HashMap<>();
    private ChannelHandlerContext ctx;
    private Ticker ticker;
    private Future<?> sweeper;
    private long batchNanos = -1;
    private boolean flushPending;
    private boolean inReadBatch;
    /** The received frame being handed to the handler now, held; the only received buffer framed in place. */
    private ByteBuf inHand;

    UdpSessionHandler(Supplier<FrameHandler> handlers, ConnectionStats stats, int width, int maxBody,
            Duration idleTimeout, ConnectionBudget sessionBudget) {
        this.handlers = handlers;
        this.stats = stats;
        this.width = width;
        this.maxBody = maxBody;
        this.idleNanos = idleTimeout.toNanos();
        this.sessionBudget = sessionBudget;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.ticker = ctx.executor().ticker();
        long period = Math.max(MIN_SWEEP_NANOS, Math.min(MAX_SWEEP_NANOS, idleNanos / 4));
        sweeper = ctx.executor().scheduleAtFixedRate(this::sweep, period, period, TimeUnit.NANOSECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DatagramPacket packet)) {
            ctx.fireChannelRead(msg);
            return;
        }
        inReadBatch = true;
        ByteBuf content = packet.content();
        int size = content.readableBytes();
        stats.bytesRead(size);
        ProtocolErrorKind error = validate(content, size);
        if (error != null) {
            stats.protocolError(error);
            packet.release();
            return;
        }
        UdpSession session = session(packet.sender());
        if (session == null) {
            packet.release();
            return;
        }
        stats.frameRead();
        // The body must sit right after its length field, from index 0, to keep that field as headroom.
        ByteBuf frame;
        if (content.readerIndex() == 0) {
            frame = content;
        } else {
            frame = content.retainedSlice(content.readerIndex(), size);
            content.release();
        }
        frame.readerIndex(width);
        // Held while handled, so it cannot be released and recycled into another buffer that reply() would take for it.
        inHand = frame.retain();
        try {
            session.handler().onFrame(session, frame);
        } catch (RuntimeException e) {
            log.warn("dropped a datagram from {}: frame handler failed", packet.sender(), e);
        } finally {
            inHand = null;
            frame.release();
        }
    }

    private ProtocolErrorKind validate(ByteBuf content, int size) {
        if (size < width) {
            return ProtocolErrorKind.RUNT;
        }
        long length = FrameHeader.getLength(content, content.readerIndex(), width);
        if (length == 0) {
            return ProtocolErrorKind.EMPTY;
        }
        if (length > maxBody) {
            return ProtocolErrorKind.TOO_LONG;
        }
        if (length != size - width) {
            return ProtocolErrorKind.LENGTH_MISMATCH;
        }
        return null;
    }

    private UdpSession session(InetSocketAddress peer) {
        long now = batchNanos();
        UdpSession session = sessions.get(peer);
        if (session != null) {
            session.lastFrameNanos = now;
            return session;
        }
        if (!sessionBudget.tryAcquire()) {
            // Not a session that closed: a datagram that found no room. Spoofed sources can fill the table.
            stats.counters().droppedAtSessionLimit();
            return null;
        }
        FrameHandler handler;
        try {
            handler = handlers.get();
        } catch (RuntimeException e) {
            // No session: its place goes back, and the datagram is dropped as a datagram past the cap is.
            sessionBudget.release();
            log.warn("dropped a datagram from {}: the frame handler factory failed", peer, e);
            return null;
        }
        session = new UdpSession(this, peer, now, handler);
        sessions.put(peer, session);
        stats.counters().opened();
        session.handler().sessionOpened(session);
        return session;
    }

    /** One clock read per read batch is precise enough for an idle timeout. */
    private long batchNanos() {
        if (batchNanos < 0) {
            batchNanos = ticker.nanoTime();
        }
        return batchNanos;
    }

    /** Sends {@code body} to {@code peer}; {@code whenDone}, if not null, runs once the datagram is written or failed. */
    void reply(InetSocketAddress peer, ByteBuf body, Runnable whenDone) {
        if (!ctx.executor().inEventLoop()) {
            // The traffic counts are event-loop confined; off-loop replies hop over.
            ctx.executor().execute(() -> reply(peer, body, whenDone));
            return;
        }
        int length = body.readableBytes();
        if (length == 0 || length > maxBody) {
            body.release();
            if (whenDone != null) {
                whenDone.run();
            }
            throw new IllegalArgumentException("reply length: " + length + " (expected: 1.." + maxBody + ")");
        }
        ByteBuf datagram = body;
        if (!FrameHeader.prependInHeadroom(body, width) && !prependInReceivedField(body)) {
            datagram = ctx.alloc().ioBuffer(width + length);
            FrameHeader.setLength(datagram, 0, width, length);
            datagram.writerIndex(width).writeBytes(body);
            body.release();
        }
        stats.frameWritten(width + length);
        if (whenDone == null) {
            ctx.write(new DatagramPacket(datagram, peer), ctx.voidPromise());
        } else {
            ctx.write(new DatagramPacket(datagram, peer)).addListener(future -> whenDone.run());
        }
        flushPending = true;
        if (!inReadBatch) {
            // A reply from a timer on the event loop: no read batch will end to flush it.
            flush();
        }
    }

    /**
     * Writes the reply's length over the received one when {@code body} is the datagram being handled right now, as
     * it was handed over (reader index still past the field): those bytes are the framework's. Any other buffer,
     * including that datagram answered after its handling returned, is not written to.
     */
    private boolean prependInReceivedField(ByteBuf body) {
        if (body != inHand || body.readerIndex() != width || body.isReadOnly()) {
            return false;
        }
        FrameHeader.setLength(body, 0, width, body.readableBytes());
        body.readerIndex(0);
        inHand = null;
        return true;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inReadBatch = false;
        batchNanos = -1;
        flush();
    }

    private void flush() {
        // Counts first, so a peer that has its reply also finds it counted.
        stats.publish();
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
    }

    private void sweep() {
        long now = ticker.nanoTime();
        Iterator<UdpSession> it = sessions.values().iterator();
        while (it.hasNext()) {
            UdpSession session = it.next();
            if (now - session.lastFrameNanos >= idleNanos) {
                it.remove();
                end(session, CloseReason.IDLE);
            }
        }
    }

    void forget(InetSocketAddress peer) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> forget(peer));
            return;
        }
        flush();
        UdpSession session = sessions.remove(peer);
        if (session != null) {
            end(session, CloseReason.PEER);
        }
    }

    /** Ends a session already out of the table. */
    private void end(UdpSession session, CloseReason reason) {
        sessionBudget.release();
        stats.counters().closed(reason);
        session.handler().sessionClosed(session);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (sweeper != null) {
            sweeper.cancel(false);
        }
        stats.publish();
        for (UdpSession session : sessions.values()) {
            end(session, CloseReason.SHUTDOWN);
        }
        sessions.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.warn("udp channel {}: {}", ctx.channel().localAddress(), cause.toString());
    }

    ByteBuf allocateBody(int capacity) {
        return FrameHeader.allocateBody(ctx.alloc(), width, capacity);
    }

    ByteBufAllocator alloc() {
        return ctx.alloc();
    }

    EventLoop eventLoop() {
        return ctx.channel().eventLoop();
    }
}
