package io.ricochet.testing;

import static org.awaitility.Awaitility.await;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicClientCodecBuilder;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamType;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A QUIC client for tests: one connection (trusting any certificate: the tests check framing, not PKI) on which
 * bidirectional streams are opened, each collecting what it receives.
 */
public final class QuicTestClient implements AutoCloseable {
    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel datagram;
    private final QuicChannel connection;

    private QuicTestClient(InetSocketAddress server, String alpn) throws Exception {
        QuicSslContext tls = QuicSslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
                .applicationProtocols(alpn).build();
        Channel bound = null;
        try {
            bound = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                    .handler(new QuicClientCodecBuilder().sslContext(tls).maxIdleTimeout(30, TimeUnit.SECONDS)
                            .initialMaxData(16 * 1024 * 1024).initialMaxStreamDataBidirectionalLocal(4 * 1024 * 1024)
                            .initialMaxStreamDataBidirectionalRemote(4 * 1024 * 1024).build())
                    .bind(0).sync().channel();
            connection = QuicChannel.newBootstrap(bound).streamHandler(new ChannelInboundHandlerAdapter())
                    .remoteAddress(server).connect().get(10, TimeUnit.SECONDS);
            datagram = bound;
        } catch (Exception e) {
            // Closed first, so the codec frees its native buffers before the loop ends.
            if (bound != null) {
                bound.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw e;
        }
    }

    /** Connects, offering {@code alpn}; fails if the handshake does. */
    public static QuicTestClient connect(InetSocketAddress server, String alpn) throws Exception {
        return new QuicTestClient(server, alpn);
    }

    public QuicChannel connection() {
        return connection;
    }

    public Stream openStream() throws Exception {
        Stream stream = new Stream();
        stream.channel = connection.createStream(QuicStreamType.BIDIRECTIONAL, stream.collector).get(10,
                TimeUnit.SECONDS);
        return stream;
    }

    @Override
    public void close() {
        connection.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        datagram.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** One bidirectional stream: what it received, in order, and whether the server has ended it. */
    public static final class Stream {
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private final CompletableFuture<Void> closed = new CompletableFuture<>();
        private QuicStreamChannel channel;
        private final ChannelInboundHandlerAdapter collector = new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                try {
                    synchronized (received) {
                        buf.readBytes(received, buf.readableBytes());
                    }
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                } finally {
                    buf.release();
                }
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                closed.complete(null);
            }

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt instanceof io.netty.channel.socket.ChannelInputShutdownReadComplete) {
                    closed.complete(null);
                }
                ctx.fireUserEventTriggered(evt);
            }
        };

        public QuicStreamChannel channel() {
            return channel;
        }

        public void write(byte[] bytes) {
            channel.writeAndFlush(Unpooled.wrappedBuffer(bytes)).syncUninterruptibly();
        }

        /** Waits until {@code n} bytes have arrived and returns them (and any more that came). */
        public byte[] read(int n, Duration timeout) {
            return read(n, timeout, () -> "");
        }

        /**
         * As {@link #read(int, Duration)}, failing on the timeout with how far the stream got, its state and
         * {@code diagnosis} (the rest of the path's state, read only then).
         */
        public byte[] read(int n, Duration timeout, Supplier<String> diagnosis) {
            try {
                await().atMost(timeout).until(() -> receivedBytes() >= n);
            } catch (ConditionTimeoutException e) {
                throw new AssertionError("after " + timeout + ", " + receivedBytes() + " of " + n
                        + " bytes had arrived; the stream was " + (channel.isActive() ? "active" : "inactive")
                        + (channel.isWritable() ? ", writable" : ", not writable") + (closed.isDone() ? ", ended" : "")
                        + "; " + diagnosis.get(), e);
            }
            synchronized (received) {
                return received.toByteArray();
            }
        }

        /** Completes when the server has ended the stream (its end, or the whole stream). */
        public CompletableFuture<Void> ended() {
            return closed;
        }

        public int receivedBytes() {
            synchronized (received) {
                return received.size();
            }
        }
    }
}
