package io.ricochet.handler;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits TCP connections up to a cap and remembers the admitted ones until they close, so a graceful
 * shutdown can reach each of them. One close listener instance serves every channel.
 */
public final class ConnectionRegistry {
    private final int maxConnections;
    private final AtomicInteger active = new AtomicInteger();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final ChannelFutureListener onClose = future -> {
        channels.remove(future.channel());
        active.decrementAndGet();
    };

    public ConnectionRegistry(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** Registers {@code channel} and returns true, or returns false if the cap is reached. */
    public boolean admit(Channel channel) {
        if (active.incrementAndGet() > maxConnections) {
            active.decrementAndGet();
            return false;
        }
        channels.add(channel);
        channel.closeFuture().addListener(onClose);
        return true;
    }

    public int active() {
        return active.get();
    }

    /** A snapshot of the open admitted channels. */
    public Set<Channel> channels() {
        return Set.copyOf(channels);
    }
}
