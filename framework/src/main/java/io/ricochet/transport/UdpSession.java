package io.ricochet.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** One UDP peer: alive from its first valid datagram until the idle timeout passes without another. */
final class UdpSession implements FrameSession {
    private final UdpSessionHandler owner;
    private final InetSocketAddress peer;
    long lastFrameNanos;
    private Object attachment;

    UdpSession(UdpSessionHandler owner, InetSocketAddress peer, long nowNanos) {
        this.owner = owner;
        this.peer = peer;
        this.lastFrameNanos = nowNanos;
    }

    @Override
    public void reply(ByteBuf body) {
        owner.reply(peer, body, null);
    }

    @Override
    public void reply(ByteBuf body, Runnable whenDone) {
        owner.reply(peer, body, whenDone);
    }

    /** One channel serves every peer and never pauses for one of them. */
    @Override
    public boolean isWritable() {
        return true;
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

    @Override
    public void attach(Object attachment) {
        this.attachment = attachment;
    }

    @Override
    public Object attachment() {
        return attachment;
    }
}
