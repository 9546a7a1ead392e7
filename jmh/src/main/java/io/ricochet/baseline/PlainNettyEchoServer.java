package io.ricochet.baseline;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.ricochet.config.TransportKind;
import io.ricochet.transport.IoTransport;
import java.net.InetSocketAddress;

/**
 * The yardstick: the reversed-echo server written the obvious way with plain Netty. Netty's
 * {@link LengthFieldBasedFrameDecoder} and {@link LengthFieldPrepender}, a handler that copies each body
 * reversed into a new buffer, and a write-and-flush per frame. Not part of the product.
 *
 * <p>usage: {@code java -cp jmh/target/benchmarks.jar io.ricochet.baseline.PlainNettyEchoServer [port] [ioThreads] [transport]}
 */
public final class PlainNettyEchoServer {
    private PlainNettyEchoServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        IoTransport.preferOneShotIoUringPoll();
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 7100;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        IoTransport transport = IoTransport.resolve(TransportKind.fromLabel(args.length > 2 ? args[2] : "auto"));
        EventLoopGroup group = transport.newEventLoopGroup(threads, "baseline-io");
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverSocketChannel())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(
                                    new LengthFieldBasedFrameDecoder(65_537, 0, 2, 0, 2),
                                    new LengthFieldPrepender(2),
                                    new ReverseCopyHandler());
                        }
                    })
                    .bind("127.0.0.1", port).sync().channel();
            InetSocketAddress bound = (InetSocketAddress) server.localAddress();
            System.out.println("listening tcp 127.0.0.1:" + bound.getPort() + " (plain netty, " + transport.kind().label() + ")");
            System.out.flush();
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Copies the body reversed into a new buffer and writes and flushes it at once. */
    static final class ReverseCopyHandler extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf body) {
            int n = body.readableBytes();
            ByteBuf reply = ctx.alloc().buffer(n);
            for (int i = body.writerIndex() - 1; i >= body.readerIndex(); i--) {
                reply.writeByte(body.getByte(i));
            }
            ctx.writeAndFlush(reply);
        }
    }
}
