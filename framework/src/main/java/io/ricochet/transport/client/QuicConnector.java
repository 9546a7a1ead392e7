package io.ricochet.transport.client;

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
import io.netty.handler.codec.quic.SslEarlyDataReadyEvent;
import io.netty.util.AttributeKey;
import io.ricochet.transport.IoTransport;
import io.ricochet.transport.QuicSockets;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * A client's QUIC connections, each carrying one framed session on one bidirectional stream whose pipeline
 * {@code stream} builds. Connections on one event loop (and source address) share one datagram socket, told apart by
 * their connection IDs as QUIC intends: a connection costs no file descriptor, its handshake does not pay for a
 * QUIC configuration of its own, and the packets of all of them leave in one batch per flush. When a stream closes,
 * its connection is closed ({@code CONNECTION_CLOSE}); {@link #close(long)} closes every connection, then the sockets.
 * With a TLS context that allows early data and a session to resume, the stream opens, and its first writes go, in
 * the first flight (0-RTT).
 */
final class QuicConnector {
    /** Whom a connection is for: its TLS engine checks the certificate's name against it. */
    private static final AttributeKey<InetSocketAddress> REMOTE = AttributeKey.valueOf("ricochet.quic.remote");

    private final IoTransport transport;
    private final QuicSslContext tls;
    private final long idleMillis;
    private final int connectTimeoutMillis;
    private final int socketBuffer;
    private final ConcurrentMap<SocketKey, ChannelFuture> sockets = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** One shared socket per event loop and source address (null for any). */
    private record SocketKey(EventLoop loop, InetAddress local) {
    }

    /**
     * @param socketBuffer the shared sockets' receive and send buffers, in bytes: every connection of a loop reads
     *                     through one
     */
    QuicConnector(IoTransport transport, QuicSslContext tls, long idleMillis, int connectTimeoutMillis,
            int socketBuffer) {
        this.transport = transport;
        this.tls = tls;
        this.idleMillis = idleMillis;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.socketBuffer = socketBuffer;
    }

    /**
     * Connects and opens the stream. The future is the shared datagram socket's: it completes once the stream is
     * open, or fails with the bind, handshake or stream failure, the connection then closed. Close a connection
     * through its stream, not through the future's channel, which is every connection's socket on that loop.
     */
    ChannelFuture connect(EventLoop loop, InetSocketAddress remote, InetSocketAddress local, ChannelHandler stream) {
        ChannelFuture bound = socket(new SocketKey(loop, local == null ? null : local.getAddress()));
        Channel datagram = bound.channel();
        ChannelPromise ready = datagram.newPromise();
        bound.addListener(b -> {
            if (!b.isSuccess()) {
                ready.tryFailure(b.cause());
                return;
            }
            StreamOpener opener = new StreamOpener(stream, ready);
            QuicChannel.newBootstrap(datagram).remoteAddress(remote)
                    .attr(REMOTE, remote)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                    .handler(opener)
                    // A stream the server opens is not part of the protocol: what it brings goes to the pipeline's
                    // tail, which releases it.
                    .streamHandler(new ChannelInboundHandlerAdapter())
                    .connect().addListener(c -> {
                        if (c.isSuccess()) {
                            opener.open((QuicChannel) c.getNow());
                        } else {
                            ready.tryFailure(c.cause());
                        }
                    });
        });
        return ready;
    }

    /** The shared socket for {@code key}, bound on first use; after {@link #close(long)}, one closed at once. */
    private ChannelFuture socket(SocketKey key) {
        ChannelFuture bound = sockets.get(key);
        if (bound != null) {
            return bound;
        }
        // Not computeIfAbsent: a bind on the event loop may complete, and run its listeners, before it returns.
        synchronized (sockets) {
            bound = sockets.get(key);
            if (bound != null) {
                return bound;
            }
            bound = bind(key);
            sockets.put(key, bound);
        }
        ChannelFuture socket = bound;
        // A socket that failed or closed is made again by the next connect.
        socket.addListener(b -> {
            if (!b.isSuccess()) {
                sockets.remove(key, socket);
            }
        });
        socket.channel().closeFuture().addListener(c -> sockets.remove(key, socket));
        if (closed) {
            socket.channel().close();
        }
        return socket;
    }

    private ChannelFuture bind(SocketKey key) {
        ClosesConnectionsFirst closer = new ClosesConnectionsFirst();
        ChannelHandler codec = new QuicClientCodecBuilder()
                .maxRecvUdpPayloadSize(QuicSockets.MAX_UDP_PAYLOAD)
                // The engine knows whom it connects to, so the certificate's name is checked against it, and a
                // session to resume is looked up by it.
                .sslEngineProvider(q -> {
                    InetSocketAddress remote = q.attr(REMOTE).get();
                    return tls.newEngine(q.alloc(), remote.getHostString(), remote.getPort());
                })
                .maxIdleTimeout(idleMillis, TimeUnit.MILLISECONDS)
                .initialMaxData(QuicSockets.CONNECTION_WINDOW)
                .initialMaxStreamDataBidirectionalLocal(QuicSockets.STREAM_WINDOW)
                .initialMaxStreamDataBidirectionalRemote(QuicSockets.STREAM_WINDOW)
                .build();
        Bootstrap bootstrap = QuicSockets.datagramBootstrap(key.loop(), transport)
                .option(ChannelOption.SO_RCVBUF, socketBuffer)
                .option(ChannelOption.SO_SNDBUF, socketBuffer)
                .attr(ClosesConnectionsFirst.KEY, closer)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(codec, closer);
                    }
                });
        return bootstrap.bind(new InetSocketAddress(key.local(), 0));
    }

    /** Closes every connection ({@code CONNECTION_CLOSE}) and then the sockets; waits up to {@code waitMillis}. */
    void close(long waitMillis) {
        closed = true;
        List<ChannelFuture> closing = new ArrayList<>();
        for (ChannelFuture bound : List.copyOf(sockets.values())) {
            closing.add(bound.channel().close());
        }
        for (ChannelFuture f : closing) {
            f.awaitUninterruptibly(waitMillis);
        }
    }

    /**
     * Opens the connection's one stream, once: as soon as the handshake lets data go, which with a resumed session
     * and early data (0-RTT) is before the server has answered, else when the connection is established.
     */
    private static final class StreamOpener extends ChannelInboundHandlerAdapter {
        private final ChannelHandler stream;
        private final ChannelPromise ready;
        private boolean opened;

        StreamOpener(ChannelHandler stream, ChannelPromise ready) {
            this.stream = stream;
            this.ready = ready;
        }

        /** From its start, so that closing the socket mid-handshake tells the server too. */
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            QuicChannel connection = (QuicChannel) ctx.channel();
            connection.parent().attr(ClosesConnectionsFirst.KEY).get().add(connection);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslEarlyDataReadyEvent) {
                // The event comes from inside quiche's send, which would hold back what the stream writes as it
                // opens until the next send; opened just after, the stream's first flush sends it at once.
                QuicChannel connection = (QuicChannel) ctx.channel();
                ctx.executor().execute(() -> open(connection));
            }
            ctx.fireUserEventTriggered(evt);
        }

        /** On the connection's event loop, as both callers are. */
        void open(QuicChannel connection) {
            if (opened) {
                return;
            }
            opened = true;
            connection.createStream(QuicStreamType.BIDIRECTIONAL, stream).addListener(s -> {
                if (!s.isSuccess()) {
                    ready.tryFailure(s.cause());
                    connection.close();
                    return;
                }
                ((QuicStreamChannel) s.getNow()).closeFuture().addListener(x -> connection.close());
                ready.trySuccess();
            });
        }
    }

    /**
     * Closing a shared socket (as a client's close does) closes its QUIC connections first, so the server is told
     * ({@code CONNECTION_CLOSE}) rather than left to its idle timeout.
     */
    private static final class ClosesConnectionsFirst extends ChannelOutboundHandlerAdapter {
        static final AttributeKey<ClosesConnectionsFirst> KEY = AttributeKey.valueOf("ricochet.quic.closer");

        private final Set<QuicChannel> connections = ConcurrentHashMap.newKeySet();

        void add(QuicChannel connection) {
            connections.add(connection);
            connection.closeFuture().addListener(x -> connections.remove(connection));
        }

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
            List<ChannelFuture> closing = new ArrayList<>();
            for (QuicChannel connection : List.copyOf(connections)) {
                closing.add(connection.close());
            }
            if (closing.isEmpty()) {
                ctx.close(promise);
                return;
            }
            int[] left = {closing.size()};
            for (ChannelFuture f : closing) {
                // All on this socket's event loop, as its connections are.
                f.addListener(x -> {
                    if (--left[0] == 0) {
                        ctx.close(promise);
                    }
                });
            }
        }
    }
}
