package io.ricochet.baseline;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.ricochet.config.LeakDetection;
import io.ricochet.config.TransportKind;
import io.ricochet.transport.IoTransport;
import java.net.InetSocketAddress;

/**
 * The yardstick: the reversed-echo server as a Netty expert writes it, on Netty's own codecs. Not part of the
 * product.
 * <ul>
 * <li>{@code idiomatic} (the baseline): {@link LengthFieldBasedFrameDecoder} and {@link LengthFieldPrepender}, each
 * body copied reversed into a new buffer (eight bytes a step, as Ricochet reverses) and written in {@code channelRead}, one flush per read batch in
 * {@code channelReadComplete} (as Netty's own {@code EchoServerHandler}), and reading paused while the channel is
 * not writable.</li>
 * <li>{@code naive}: the same, but a write-and-flush per frame; kept only as a labelled row, to show what the
 * per-batch flush is worth.</li>
 * <li>{@code floor}: Netty's floor, no codecs at all: one {@link InPlaceFloorHandler} reverses whole frames where
 * they lie in the read buffer and writes that buffer back, flushed once per read batch. What the channel itself
 * costs, below any framework; a labelled row, not a baseline to beat.</li>
 * </ul>
 *
 * <p>usage: {@code java -cp jmh/target/benchmarks.jar io.ricochet.baseline.NettyEchoServer [port] [ioThreads]
 * [transport] [idiomatic|naive|floor]}; prints {@code listening tcp 127.0.0.1:PORT (netty MODE, TRANSPORT)}
 */
public final class NettyEchoServer {
    /** The protocol's default largest body with the 2-byte length field. */
    static final int MAX_BODY = 4094;

    private NettyEchoServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        LeakDetection.offUnlessAsked();
        IoTransport.preferOneShotIoUringPoll();
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 7100;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        IoTransport transport = IoTransport.resolve(TransportKind.fromLabel(args.length > 2 ? args[2] : "auto"));
        String mode = args.length > 3 ? args[3] : "idiomatic";
        if (!mode.equals("idiomatic") && !mode.equals("naive") && !mode.equals("floor")) {
            System.err.println("mode: expected idiomatic, naive or floor, got '" + mode + "'");
            System.exit(2);
        }
        EventLoopGroup group = transport.newEventLoopGroup(threads, "baseline-io");
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverSocketChannel())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (mode.equals("floor")) {
                                ch.pipeline().addLast(new InPlaceFloorHandler());
                                return;
                            }
                            ch.pipeline().addLast(
                                    new LengthFieldBasedFrameDecoder(2 + MAX_BODY, 0, 2, 0, 2),
                                    new LengthFieldPrepender(2),
                                    mode.equals("naive") ? new FlushPerFrameHandler() : new FlushPerBatchHandler());
                        }
                    })
                    .bind("127.0.0.1", port).sync().channel();
            InetSocketAddress bound = (InetSocketAddress) server.localAddress();
            System.out.println("listening tcp 127.0.0.1:" + bound.getPort() + " (netty " + mode + ", "
                    + transport.kind().label() + ")");
            System.out.flush();
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** The body reversed into a new buffer: eight bytes at a time from the end, then the rest bytewise. */
    static ByteBuf reversedCopy(ChannelHandlerContext ctx, ByteBuf body) {
        int n = body.readableBytes();
        ByteBuf reply = ctx.alloc().ioBuffer(n);
        int end = body.writerIndex();
        int start = body.readerIndex();
        while (end - start >= 8) {
            end -= 8;
            reply.writeLong(Long.reverseBytes(body.getLong(end)));
        }
        while (end > start) {
            reply.writeByte(body.getByte(--end));
        }
        body.release();
        return reply;
    }

    /** Writes each reply as it is made and flushes once per read batch; reads no more while writes back up. */
    static final class FlushPerBatchHandler extends FlushPerBatch {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(reversedCopy(ctx, (ByteBuf) msg), ctx.voidPromise());
        }
    }

    /** The naive row: write and flush every frame. */
    static final class FlushPerFrameHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(reversedCopy(ctx, (ByteBuf) msg), ctx.voidPromise());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
