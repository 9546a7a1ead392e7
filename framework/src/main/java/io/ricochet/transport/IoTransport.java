package io.ricochet.transport;

import io.netty.channel.ChannelOption;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.channel.unix.UnixChannelOption;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.config.TransportKind;
import java.net.StandardSocketOptions;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One I/O implementation: how to make its event loops and which channel classes go with them.
 * {@link #resolve} turns {@link TransportKind#AUTO} into epoll, then io_uring, then NIO, by what loads here; on Linux,
 * where epoll should load, a fallback is said at WARN and kept in {@code fallback} (null otherwise), which
 * {@link #label} shows.
 *
 * <p>io_uring comes after epoll because Netty 4.2.18's io_uring misses a peer's reset that arrives right
 * after data: the read loop ends on a completion that does not flag the socket non-empty, and the
 * multishot POLLIN it re-arms has already consumed the reset's wakeup, so the channel stays open until
 * something else closes it (a client looping connect, send a byte, reset held 38,303 descriptors in
 * 5 s). Netty's one-shot POLLIN sees the reset; {@link #preferOneShotIoUringPoll()} selects it.
 */
public record IoTransport(
        TransportKind kind,
        Supplier<IoHandlerFactory> ioHandlerFactory,
        Class<? extends ServerSocketChannel> serverSocketChannel,
        Class<? extends SocketChannel> socketChannel,
        Class<? extends DatagramChannel> datagramChannel,
        String fallback) {

    /** Netty's switch for io_uring's multishot POLLIN, read once when its {@code IoUring} class loads. */
    public static final String IO_URING_MULTISHOT_POLL_PROPERTY = "io.netty.iouring.pollAddMultishotEnabled";

    private static final Logger log = LoggerFactory.getLogger(IoTransport.class);
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT)
            .startsWith("linux");

    /** The transport {@code requested} names, or for AUTO the best available; fails if a forced one cannot load. */
    public static IoTransport resolve(TransportKind requested) {
        return switch (requested) {
            case AUTO -> {
                IoTransport chosen = Epoll.isAvailable() ? epoll() : IoUring.isAvailable() ? ioUring() : nio();
                if (chosen.kind() != TransportKind.EPOLL && LINUX) {
                    // On Linux epoll should load: a fallback is a slower run that must not pass unnoticed (a noexec
                    // /tmp that Netty extracted its library to, a missing native jar).
                    String why = "epoll unavailable: " + oneLine(Epoll.unavailabilityCause());
                    log.warn("transport auto: {} ({}; io_uring {})", chosen.kind().label(), why,
                            availability(IoUring.isAvailable(), IoUring.unavailabilityCause()));
                    yield chosen.fellBack(why);
                }
                log.info("transport auto: {} (epoll {}, io_uring {})", chosen.kind().label(),
                        availability(Epoll.isAvailable(), Epoll.unavailabilityCause()),
                        availability(IoUring.isAvailable(), IoUring.unavailabilityCause()));
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

    /**
     * The transport's name as a run reports it: {@code epoll}, or after a fallback of {@code auto} on Linux the one
     * chosen and why ({@code nio (auto: epoll unavailable: …)}).
     */
    public String label() {
        return fallback == null ? kind.label() : kind.label() + " (auto: " + fallback + ")";
    }

    private IoTransport fellBack(String why) {
        return new IoTransport(kind, ioHandlerFactory, serverSocketChannel, socketChannel, datagramChannel, why);
    }

    /** The first line of {@code cause}, and of its root cause where that says more. */
    private static String oneLine(Throwable cause) {
        if (cause == null) {
            return "no cause given";
        }
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = String.valueOf(cause).lines().findFirst().orElse("");
        String rootText = String.valueOf(root).lines().findFirst().orElse("");
        return root == cause || text.contains(rootText) ? text : text + ": " + rootText;
    }

    /** Whether {@code kind} can run here; AUTO and NIO always can. */
    public static boolean isAvailable(TransportKind kind) {
        return switch (kind) {
            case IO_URING -> IoUring.isAvailable();
            case EPOLL -> Epoll.isAvailable();
            case AUTO, NIO -> true;
        };
    }

    /**
     * The option that binds a listener with {@code SO_REUSEPORT} on this transport: the native one for epoll and
     * io_uring, the JDK's socket option for NIO.
     */
    public ChannelOption<Boolean> reusePortOption() {
        return kind == TransportKind.NIO ? NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT)
                : UnixChannelOption.SO_REUSEPORT;
    }

    /**
     * The option that lets one read take several datagrams into one buffer, each in a slot of this many bytes
     * ({@code recvmmsg} on epoll, several {@code recvmsg} submitted at once on io_uring); null on NIO, which reads one
     * datagram a call.
     */
    public ChannelOption<Integer> maxDatagramPayloadOption() {
        return switch (kind) {
            case EPOLL -> EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE;
            case IO_URING -> IoUringChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE;
            default -> null;
        };
    }

    /** A group of {@code threads} event loops of this transport, with threads named {@code name-N}. */
    public MultiThreadIoEventLoopGroup newEventLoopGroup(int threads, String name) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), ioHandlerFactory.get());
    }

    /**
     * For a program's {@code main}, before anything touches io_uring: selects Netty's one-shot POLLIN for
     * io_uring (see the class comment), unless {@value #IO_URING_MULTISHOT_POLL_PROPERTY} was set on the
     * command line. It costs one poll submission per read loop. The echo server and the load generator call it.
     */
    public static void preferOneShotIoUringPoll() {
        if (System.getProperty(IO_URING_MULTISHOT_POLL_PROPERTY) == null) {
            System.setProperty(IO_URING_MULTISHOT_POLL_PROPERTY, "false");
        }
    }

    private static IoTransport ioUring() {
        if (IoUring.isPollAddMultishotEnabled()) {
            log.warn("io_uring with multishot POLLIN: Netty 4.2.18 keeps a connection reset right after data open "
                    + "until its idle timeout; start the JVM with -D{}=false, or use epoll",
                    IO_URING_MULTISHOT_POLL_PROPERTY);
        }
        return new IoTransport(TransportKind.IO_URING, IoUringIoHandler::newFactory, IoUringServerSocketChannel.class,
                IoUringSocketChannel.class, IoUringDatagramChannel.class, null);
    }

    private static IoTransport epoll() {
        return new IoTransport(TransportKind.EPOLL, EpollIoHandler::newFactory, EpollServerSocketChannel.class,
                EpollSocketChannel.class, EpollDatagramChannel.class, null);
    }

    private static IoTransport nio() {
        return new IoTransport(TransportKind.NIO, NioIoHandler::newFactory, NioServerSocketChannel.class,
                NioSocketChannel.class, NioDatagramChannel.class, null);
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
