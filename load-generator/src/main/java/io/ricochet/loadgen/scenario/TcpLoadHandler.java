package io.ricochet.loadgen.scenario;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.ricochet.codec.FrameRun;

/**
 * A TCP load connection: it writes whole frames itself, and the framework's decoder hands it each read's replies as
 * one {@link FrameRun}, checked where they lie.
 */
final class TcpLoadHandler extends LoadConnection {

    TcpLoadHandler(EchoLoad load, LoopDriver driver, long id) {
        super(load, driver, id);
    }

    @Override
    protected boolean coalescesRequests() {
        return true;
    }

    @Override
    protected void write(ByteBuf requests) {
        ctx.write(requests, ctx.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        onReplies((FrameRun) msg);
    }
}
