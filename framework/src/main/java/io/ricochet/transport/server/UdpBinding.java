package io.ricochet.transport.server;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.transport.IoTransport;
import io.ricochet.transport.session.Sessions;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A UDP listener: one or more sockets on one port, a session per peer. */
final class UdpBinding extends ListenerBinding {
    private static final Logger log = LoggerFactory.getLogger(RicochetServer.class);
    /** Datagrams one UDP read may take at most, and the buffer they share: small datagrams batch, large ones do not. */
    private static final int MAX_DATAGRAMS_PER_READ = 16;
    private static final int DATAGRAM_READ_BYTES = 64 * 1024;

    /** One cap for every socket of the port, however the kernel spreads the peers over them. */
    private final ConnectionBudget sessions;
    /** The sockets bound so far, all on one port; the first one bound first. */
    private final List<Channel> channels = new CopyOnWriteArrayList<>();

    UdpBinding(Listener listener, ServerConfig config, ListenerContext context) {
        super(listener, config, context);
        this.sessions = new ConnectionBudget(config.maxUdpSessions());
    }

    /**
     * Binds the port once per channel, each channel on an event loop of its own: the first with the configured port,
     * the rest with the port it got. With {@code reusePort} every channel sets {@code SO_REUSEPORT}, and other
     * processes that set it share the port on purpose. Without it the first channel binds without the option, so the
     * bind fails if anything holds the port, as a TCP listener's does; only then, the port its own, does it turn the
     * option on, so that this listener's other channels can join it. Binding them all with the option let a second
     * server without {@code --reuse-port} bind the same port and take a share of the first one's peers.
     */
    @Override
    CompletableFuture<Void> bind() {
        List<EventLoop> channelLoops = udpLoops();
        boolean shared = config.reusePort();
        CompletableFuture<Channel> first = bind(channelLoops.get(0), config.udpPort(), shared);
        CompletableFuture<Void> bound = channelLoops.size() == 1 || shared ? first.thenApply(ch -> null)
                : first.thenAccept(this::openToOwnChannels);
        for (EventLoop loop : channelLoops.subList(1, channelLoops.size())) {
            bound = bound.thenCompose(v -> bind(loop, address().getPort(), true)).thenApply(ch -> null);
        }
        return bound.thenRun(() -> log.info("{} bound to {} ({}, {} channel{})", listener.protocol(),
                hostPort(address()), context.loops().kind().label(), channelLoops.size(),
                channelLoops.size() == 1 ? "" : "s"));
    }

    /**
     * Sets {@code SO_REUSEPORT} on the first channel, bound without it, so that the listener's other channels can bind
     * its port. The kernel cannot keep the group to them: a process that sets the option itself could join from now
     * on, but one that does not (a server without {@code reusePort}) is refused.
     */
    private void openToOwnChannels(Channel first) {
        String failure;
        Throwable cause = null;
        try {
            failure = first.config().setOption(context.loops().transport().reusePortOption(), true) ? null
                    : "unsupported";
        } catch (ChannelException e) {
            failure = e.getMessage();
            cause = e;
        }
        if (failure != null) {
            throw new ServerStartException("cannot bind udp " + hostPort(address()) + " for several channels: "
                    + "SO_REUSEPORT: " + failure + " (expected: udpChannels 1 on " + context.loops().kind().label()
                    + ")", cause);
        }
    }

    /** The event loops that get a channel: as many as configured, or one per loop where the transport scales. */
    private List<EventLoop> udpLoops() {
        List<EventLoop> all = new ArrayList<>();
        context.loops().group().forEach(executor -> all.add((EventLoop) executor));
        int wanted = config.udpChannels() != 0 ? config.udpChannels()
                : context.loops().kind() == TransportKind.NIO ? 1 : all.size();
        return all.subList(0, Math.min(wanted, all.size()));
    }

    private CompletableFuture<Channel> bind(EventLoop loop, int port, boolean reusePort) {
        IoTransport transport = context.loops().transport();
        int width = config.lengthField().width();
        // One byte more than the largest valid datagram, so an oversized one is seen as oversized.
        int slot = width + config.maxUdpBody() + 1;
        ChannelOption<Integer> batched = transport.maxDatagramPayloadOption();
        int slots = batched == null ? 1 : Math.max(1, Math.min(MAX_DATAGRAMS_PER_READ, DATAGRAM_READ_BYTES / slot));
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(transport.datagramChannel())
                .option(ChannelOption.SO_RCVBUF, config.udpSocketBuffer())
                .option(ChannelOption.SO_SNDBUF, config.udpSocketBuffer())
                .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(slot * slots))
                .handler(Sessions.udpSessions(handlers, new ConnectionStats(counters), width, config.maxUdpBody(),
                        config.idleTimeout(), sessions));
        if (slots > 1) {
            // Several datagrams a read (one syscall on epoll), each a slice of one buffer.
            bootstrap.option(batched, slot);
        }
        if (reusePort) {
            bootstrap.option(transport.reusePortOption(), true);
        }
        return bound(bootstrap.bind(config.host(), port), port).thenApply(ch -> {
            channels.add(ch);
            return ch;
        });
    }

    @Override
    InetSocketAddress address() {
        List<Channel> bound = channels;
        return bound.isEmpty() ? null : (InetSocketAddress) bound.get(0).localAddress();
    }

    /** Sockets bound to the port, each served by its own event loop. */
    int channelCount() {
        return channels.size();
    }

    @Override
    int active() {
        return sessions.held();
    }

    /** UDP has nothing to wait for: what it has written is flushed as the sockets close. */
    @Override
    CompletableFuture<Void> drain() {
        return close();
    }

    @Override
    Collection<Channel> openSessions() {
        return List.of();
    }

    @Override
    CompletableFuture<Void> close() {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Channel udp : channels) {
            udp.eventLoop().execute(() -> {
                udp.flush();
                udp.close();
            });
            closing.add(closed(udp.closeFuture()));
        }
        return CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new));
    }
}
