package io.ricochet.baseline;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.ricochet.echo.BodyReverser;

/**
 * Netty's floor for the reversed echo: the whole server is this one handler, which reverses each complete frame's
 * body where it lies in the read buffer and writes that buffer back, one flush per read batch. No decoder, encoder,
 * idle timer, metrics or per-frame object: the least a Netty pipeline can do for this protocol, so a benchmark of it
 * separates the cost of Netty's channel (the read, the pipeline, the outbound buffer and the flush) from a framework
 * on top. A read that ends inside a frame keeps that frame's start for the next read; a length of 0 or above the
 * protocol's largest body closes the connection, as the C server does.
 */
final class InPlaceFloorHandler extends FlushPerBatch {
    private static final int LENGTH_FIELD = 2;

    /** The start of a frame that the last read ended inside, or null. */
    private ByteBuf partial;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = partial == null ? (ByteBuf) msg : joined(ctx, (ByteBuf) msg);
        int at = in.readerIndex();
        int end = in.writerIndex();
        while (end - at >= LENGTH_FIELD) {
            int length = in.getUnsignedShort(at);
            if (length == 0 || length > NettyEchoServer.MAX_BODY) {
                in.release();
                ctx.close();
                return;
            }
            if (end - at - LENGTH_FIELD < length) {
                break;
            }
            BodyReverser.reverseInPlace(in, at + LENGTH_FIELD, length);
            at += LENGTH_FIELD + length;
        }
        if (at < end) {
            partial = ctx.alloc().ioBuffer(end - at).writeBytes(in, at, end - at);
            in.writerIndex(at);
        }
        if (in.isReadable()) {
            ctx.write(in, ctx.voidPromise());
        } else {
            in.release();
        }
    }

    private ByteBuf joined(ChannelHandlerContext ctx, ByteBuf in) {
        ByteBuf all = ctx.alloc().ioBuffer(partial.readableBytes() + in.readableBytes());
        all.writeBytes(partial).writeBytes(in);
        partial.release();
        partial = null;
        in.release();
        return all;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (partial != null) {
            partial.release();
            partial = null;
        }
    }
}
