package io.ricochet.loadgen.scenario;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/** A TCP load connection: requests go out through the framework's encoder path, replies come from its decoder. */
final class TcpLoadHandler extends LoadConnection {

    TcpLoadHandler(EchoLoad load, LoopDriver driver, long id) {
        super(load, driver, id);
    }

    @Override
    protected void write(ByteBuf request) {
        ctx.write(request, ctx.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        onReply((ByteBuf) msg);
    }
}
