package io.ricochet.loadgen.scenario;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.codec.FrameHeader;

/**
 * A UDP load socket, connected to the target, one request in flight. A request that times out is an
 * error and is remembered, so its reply, if it comes late, is recognised and ignored rather than
 * counted as ok or bad.
 */
final class UdpLoadHandler extends LoadConnection {
    private static final int REMEMBERED = 8;
    private final long[] abandoned = new long[REMEMBERED];
    private int abandonedCount;
    private final int width;

    UdpLoadHandler(EchoLoad load, LoopDriver driver, long id) {
        super(load, driver, id);
        this.width = load.spec().lengthField().width();
    }

    @Override
    protected boolean coalescesRequests() {
        return false;
    }

    @Override
    protected void write(ByteBuf requests) {
        ctx.write(requests, ctx.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf content = msg instanceof DatagramPacket packet ? packet.content() : (ByteBuf) msg;
        int size = content.readableBytes();
        if (size < width || FrameHeader.getLength(content, content.readerIndex(), width) != size - width) {
            stats.bad.increment();
            content.release();
            return;
        }
        content.skipBytes(width);
        onReply(content);
    }

    @Override
    protected void timedOut(long oldestSeq) {
        abandoned[abandonedCount++ % REMEMBERED] = oldestSeq;
        abandonOldest();
        fill(System.nanoTime());
        flushIfWritten();
    }

    @Override
    protected boolean isLateReply(ByteBuf buf, int index, int length) {
        int n = Math.min(abandonedCount, REMEMBERED);
        for (int i = 0; i < n; i++) {
            long base = payload.base(id, abandoned[i]);
            if (Payload.verifyReversed(buf, index, length, base, payload.size(base))) {
                stats.late.increment();
                return true;
            }
        }
        return false;
    }
}
