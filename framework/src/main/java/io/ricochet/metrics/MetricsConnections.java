package io.ricochet.metrics;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics endpoint's open connections, kept in the order they were last active ({@link #touch}), under a cap on
 * all of them and one on each source address. A new connection past a cap closes the longest-idle connection in its
 * way instead of being refused: that address's own past its share, else the longest idle of all. Refusing the new one
 * let a peer that held the cap with idle sockets fail every {@code /health}, a liveness probe, for as long as it
 * liked; now a connection that stays idle is the first to go, and one address displaces only itself. Thread-safe:
 * the endpoint's one event loop does everything but {@link #close}, so the lock is never contended.
 */
final class MetricsConnections {
    private static final Logger log = LoggerFactory.getLogger(MetricsConnections.class);

    private final int maxConnections;
    private final int maxPerAddress;
    /** Least recently active first: access order moves a connection to the end on every {@code get}. */
    private final LinkedHashMap<Channel, InetAddress> byActivity = new LinkedHashMap<>(16, 0.75f, true);
    /** Each address's connections, least recently active first. */
    private final Map<InetAddress, LinkedHashSet<Channel>> byAddress = new HashMap<>();
    private final AtomicLong evictedAtCap = new AtomicLong();
    private final AtomicLong evictedAtAddressCap = new AtomicLong();
    private final ChannelFutureListener onClose = future -> remove(future.channel());
    private boolean closed;
    private volatile int active;

    MetricsConnections(int maxConnections, int maxPerAddress) {
        this.maxConnections = maxConnections;
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * Takes {@code channel} in, closing the connection it displaces, if any; false once {@linkplain #close closed}, or
     * for a channel with no peer address (closed before it got here).
     */
    boolean admit(Channel channel) {
        InetAddress address = channel.remoteAddress() instanceof InetSocketAddress remote ? remote.getAddress() : null;
        if (address == null) {
            return false;
        }
        Channel displaced;
        synchronized (this) {
            if (closed) {
                return false;
            }
            displaced = makeRoom(address);
            byActivity.put(channel, address);
            byAddress.computeIfAbsent(address, a -> new LinkedHashSet<>()).add(channel);
            active = byActivity.size();
        }
        channel.closeFuture().addListener(onClose);
        if (displaced != null) {
            log.debug("closing idle metrics connection {} to make room for {}", displaced.remoteAddress(),
                    channel.remoteAddress());
            displaced.close();
        }
        return true;
    }

    /** Forgets, and returns for closing, the connection a new one from {@code address} displaces; null if none. */
    private Channel makeRoom(InetAddress address) {
        LinkedHashSet<Channel> own = byAddress.get(address);
        if (own != null && own.size() >= maxPerAddress) {
            evictedAtAddressCap.incrementAndGet();
            return forget(own.iterator().next());
        }
        if (byActivity.size() >= maxConnections) {
            evictedAtCap.incrementAndGet();
            Iterator<Channel> longestIdle = byActivity.keySet().iterator();
            return forget(longestIdle.next());
        }
        return null;
    }

    /** {@code channel} was active: a whole request arrived or an answer was written. It goes last in line. */
    synchronized void touch(Channel channel) {
        InetAddress address = byActivity.get(channel);
        if (address != null) {
            LinkedHashSet<Channel> own = byAddress.get(address);
            own.remove(channel);
            own.add(channel);
        }
    }

    private synchronized void remove(Channel channel) {
        forget(channel);
        active = byActivity.size();
    }

    private Channel forget(Channel channel) {
        InetAddress address = byActivity.remove(channel);
        if (address != null) {
            LinkedHashSet<Channel> own = byAddress.get(address);
            own.remove(channel);
            if (own.isEmpty()) {
                byAddress.remove(address);
            }
        }
        return channel;
    }

    /** Admits nothing more and returns the open connections, for a stop to close. */
    synchronized List<Channel> close() {
        closed = true;
        return List.copyOf(byActivity.keySet());
    }

    /** Connections admitted and not yet closed or displaced. */
    int active() {
        return active;
    }

    /** Connections closed so far to make room under the cap on all ({@code false}) or on one address ({@code true}). */
    long evicted(boolean perAddress) {
        return perAddress ? evictedAtAddressCap.get() : evictedAtCap.get();
    }

    /** Bytes of answers queued and not yet taken by the sockets, over the open connections. */
    synchronized long pendingOutboundBytes() {
        long total = 0;
        for (Channel channel : byActivity.keySet()) {
            ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
            if (buffer != null) {
                total += buffer.totalPendingWriteBytes();
            }
        }
        return total;
    }
}
