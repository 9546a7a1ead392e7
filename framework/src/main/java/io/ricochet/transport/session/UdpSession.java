package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.ricochet.transport.Protocol;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** One UDP peer: alive from its first valid datagram until the idle timeout passes without another. */
final class UdpSession implements FrameSession {
    private final UdpSessionHandler owner;
    private final InetSocketAddress peer;
    private final FrameHandler handler;
    long lastFrameNanos;

    UdpSession(UdpSessionHandler owner, InetSocketAddress peer, long nowNanos, FrameHandler handler) {
        this.owner = owner;
        this.peer = peer;
        this.handler = handler;
        this.lastFrameNanos = nowNanos;
    }

    @Override
    public void send(ByteBuf body) {
        owner.reply(peer, body, null);
    }

    @Override
    public void send(ByteBuf body, Runnable whenDone) {
        owner.reply(peer, body, whenDone);
    }

    /** One channel serves every peer and never pauses for one of them. */
    @Override
    public boolean isWritable() {
        return true;
    }

    /** A UDP stop is not drained: its replies go out with the read batch or not at all. */
    @Override
    public boolean isDraining() {
        return false;
    }

    @Override
    public long unansweredFrames() {
        return 0;
    }

    @Override
    public ByteBuf allocateBody(int capacity) {
        return owner.allocateBody(capacity);
    }

    @Override
    public ByteBufAllocator alloc() {
        return owner.alloc();
    }

    @Override
    public EventLoop eventLoop() {
        return owner.eventLoop();
    }

    @Override
    public SocketAddress remoteAddress() {
        return peer;
    }

    FrameHandler handler() {
        return handler;
    }

    InetSocketAddress peer() {
        return peer;
    }

    @Override
    public Protocol protocol() {
        return Protocol.UDP;
    }

    @Override
    public void close() {
        owner.forget(peer);
    }

    @Override
    public void abort() {
        owner.forget(peer);
    }

}
