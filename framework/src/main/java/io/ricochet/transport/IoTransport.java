package io.ricochet.transport;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.config.TransportKind;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One I/O implementation: how to make its event loops and which channel classes go with them.
 * {@link #resolve} turns {@link TransportKind#AUTO} into io_uring, then epoll, then NIO, by what loads here.
 */
public record IoTransport(
        TransportKind kind,
        Supplier<IoHandlerFactory> ioHandlerFactory,
        Class<? extends ServerSocketChannel> serverSocketChannel,
        Class<? extends SocketChannel> socketChannel,
        Class<? extends DatagramChannel> datagramChannel) {

    private static final Logger log = LoggerFactory.getLogger(IoTransport.class);

    /** The transport {@code requested} names, or for AUTO the best available; fails if a forced one cannot load. */
    public static IoTransport resolve(TransportKind requested) {
        return switch (requested) {
            case AUTO -> {
                IoTransport chosen = IoUring.isAvailable() ? ioUring() : Epoll.isAvailable() ? epoll() : nio();
                log.info("transport auto: {} (io_uring {}, epoll {})", chosen.kind().label(),
                        availability(IoUring.isAvailable(), IoUring.unavailabilityCause()),
                        availability(Epoll.isAvailable(), Epoll.unavailabilityCause()));
                yield chosen;
            }
            case IO_URING -> {
                require(IoUring.isAvailable(), requested, IoUring.unavailabilityCause());
                yield ioUring();
            }
            case EPOLL -> {
                require(Epoll.isAvailable(), requested, Epoll.unavailabilityCause());
                yield epoll();
            }
            case NIO -> nio();
        };
    }

    /** Whether {@code kind} can run here; AUTO and NIO always can. */
    public static boolean isAvailable(TransportKind kind) {
        return switch (kind) {
            case IO_URING -> IoUring.isAvailable();
            case EPOLL -> Epoll.isAvailable();
            case AUTO, NIO -> true;
        };
    }

    /** A group of {@code threads} event loops of this transport, with threads named {@code name-N}. */
    public MultiThreadIoEventLoopGroup newEventLoopGroup(int threads, String name) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), ioHandlerFactory.get());
    }

    private static IoTransport ioUring() {
        return new IoTransport(TransportKind.IO_URING, IoUringIoHandler::newFactory, IoUringServerSocketChannel.class,
                IoUringSocketChannel.class, IoUringDatagramChannel.class);
    }

    private static IoTransport epoll() {
        return new IoTransport(TransportKind.EPOLL, EpollIoHandler::newFactory, EpollServerSocketChannel.class,
                EpollSocketChannel.class, EpollDatagramChannel.class);
    }

    private static IoTransport nio() {
        return new IoTransport(TransportKind.NIO, NioIoHandler::newFactory, NioServerSocketChannel.class,
                NioSocketChannel.class, NioDatagramChannel.class);
    }

    private static void require(boolean available, TransportKind kind, Throwable cause) {
        if (!available) {
            throw new IllegalStateException("transport: " + kind.label() + " (unavailable here: " + cause + ")");
        }
    }

    private static String availability(boolean available, Throwable cause) {
        return available ? "available" : "unavailable: " + cause;
    }
}
