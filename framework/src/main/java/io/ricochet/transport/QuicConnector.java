package io.ricochet.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicClientCodecBuilder;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamType;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A client's QUIC connection carrying one framed session: its own datagram socket (so a connection is one file
 * descriptor and one source port, as over TCP), the handshake, and one bidirectional stream whose pipeline
 * {@code stream} builds. The three end together: when the stream closes, the connection is closed
 * ({@code CONNECTION_CLOSE}), and then the socket.
 */
final class QuicConnector {
    /**
     * Unread bytes a peer may send on one stream, and on all of a connection's streams together: the same on both
     * ends, so neither waits on the other.
     */
    static final long STREAM_WINDOW = 256 * 1024;
    static final long CONNECTION_WINDOW = 4 * 1024 * 1024;

    /**
     * The largest datagram either side accepts (QUIC's {@code max_udp_payload_size}): an Ethernet MTU's worth, so
     * reads can take {@value #DATAGRAMS_PER_READ} datagrams a call into one buffer.
     */
    static final int MAX_UDP_PAYLOAD = 1500;
    private static final int DATAGRAMS_PER_READ = 16;

    private QuicConnector() {
    }

    /** A datagram socket for QUIC on {@code loop}: several datagrams a read where the transport can (epoll, io_uring). */
    static Bootstrap datagramBootstrap(EventLoop loop, IoTransport transport) {
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(transport.datagramChannel());
        ChannelOption<Integer> batched = transport.maxDatagramPayloadOption();
        if (batched != null) {
            bootstrap.option(batched, MAX_UDP_PAYLOAD)
                    .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_UDP_PAYLOAD
                            * DATAGRAMS_PER_READ));
        }
        return bootstrap;
    }

    /**
     * Connects and opens the stream. The future is the datagram socket's: it completes once the stream is open, or
     * fails with the bind, handshake or stream failure, the socket then closed.
     */
    static ChannelFuture connect(IoTransport transport, EventLoop loop, QuicSslContext tls, long idleMillis,
            int connectTimeoutMillis, InetSocketAddress remote, InetSocketAddress local, ChannelHandler stream) {
        ClosesConnectionFirst closer = new ClosesConnectionFirst();
        ChannelHandler codec = new QuicClientCodecBuilder()
                .maxRecvUdpPayloadSize(MAX_UDP_PAYLOAD)
                // The engine knows whom it connects to, so the certificate's name is checked against it.
                .sslEngineProvider(q -> tls.newEngine(q.alloc(), remote.getHostString(), remote.getPort()))
                .maxIdleTimeout(idleMillis, TimeUnit.MILLISECONDS)
                .initialMaxData(CONNECTION_WINDOW)
                .initialMaxStreamDataBidirectionalLocal(STREAM_WINDOW)
                .initialMaxStreamDataBidirectionalRemote(STREAM_WINDOW)
                .build();
        Bootstrap bootstrap = datagramBootstrap(loop, transport).handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(codec, closer);
            }
        });
        ChannelFuture bound = bootstrap.bind(local == null ? new InetSocketAddress(0) : new InetSocketAddress(
                local.getAddress(), 0));
        Channel datagram = bound.channel();
        ChannelPromise ready = datagram.newPromise();
        bound.addListener(b -> {
            if (!b.isSuccess()) {
                ready.tryFailure(b.cause());
                return;
            }
            QuicChannel.newBootstrap(datagram).remoteAddress(remote)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                    // A stream the server opens is not part of the protocol: what it brings goes to the pipeline's
                    // tail, which releases it.
                    .streamHandler(new ChannelInboundHandlerAdapter())
                    .connect().addListener(c -> {
                        if (!c.isSuccess()) {
                            fail(ready, datagram, c.cause());
                            return;
                        }
                        QuicChannel connection = (QuicChannel) c.getNow();
                        closer.connection = connection;
                        connection.closeFuture().addListener(x -> datagram.close());
                        connection.createStream(QuicStreamType.BIDIRECTIONAL, stream).addListener(s -> {
                            if (!s.isSuccess()) {
                                // Closing the socket closes the connection first (ClosesConnectionFirst).
                                fail(ready, datagram, s.cause());
                                return;
                            }
                            QuicStreamChannel opened = (QuicStreamChannel) s.getNow();
                            opened.closeFuture().addListener(x -> connection.close());
                            ready.trySuccess();
                        });
                    });
        });
        return ready;
    }

    /**
     * Closing the socket (as a client closing its connections does) closes its QUIC connection first, so the server
     * is told ({@code CONNECTION_CLOSE}) rather than left to its idle timeout.
     */
    private static final class ClosesConnectionFirst extends ChannelOutboundHandlerAdapter {
        private volatile QuicChannel connection;

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
            QuicChannel open = connection;
            if (open != null && open.isOpen()) {
                open.close().addListener(f -> ctx.close(promise));
            } else {
                ctx.close(promise);
            }
        }
    }

    private static void fail(ChannelPromise ready, Channel datagram, Throwable cause) {
        ready.tryFailure(cause);
        datagram.close();
    }
}
