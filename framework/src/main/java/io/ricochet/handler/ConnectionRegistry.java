package io.ricochet.handler;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.ricochet.config.ServerConfig;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Admits TCP connections up to a listener's cap, up to its cap per source address if it has one, and within a budget
 * it may share with other listeners, and remembers the admitted ones until they close, so a graceful shutdown can reach
 * each of them. Without a cap per source one close listener instance serves every channel.
 */
public final class ConnectionRegistry {
    private final ConnectionBudget own;
    private final ConnectionBudget shared;
    /** The cap per source address, or null for none. */
    private final SourceBudget perSource;
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private final ChannelFutureListener onClose = future -> {
        channels.remove(future.channel());
        release();
    };

    /** A listener capped at {@code maxConnections} with no budget shared with others. */
    public ConnectionRegistry(int maxConnections) {
        this(maxConnections, null);
    }

    /** A listener capped at {@code maxConnections} that also takes a place in {@code shared}, if not null. */
    public ConnectionRegistry(int maxConnections, ConnectionBudget shared) {
        this(maxConnections, ServerConfig.NO_LIMIT, shared);
    }

    /**
     * A listener capped at {@code maxConnections}, and at {@code maxPerAddress} from one source address
     * ({@link SourceAddress}; {@link ServerConfig#NO_LIMIT} for no such cap), that also takes a place in
     * {@code shared}, if not null.
     */
    public ConnectionRegistry(int maxConnections, int maxPerAddress, ConnectionBudget shared) {
        this.own = new ConnectionBudget(maxConnections);
        this.perSource = maxPerAddress == ServerConfig.NO_LIMIT ? null : new SourceBudget(maxPerAddress);
        this.shared = shared;
    }

    /**
     * Registers {@code channel} and returns true, or returns false if the cap or the shared budget is reached,
     * or the registry is {@linkplain #close closed}.
     */
    public boolean admit(Channel channel) {
        if (closed || !own.tryAcquire()) {
            return false;
        }
        Object source = perSource == null ? null : SourceAddress.of(channel.remoteAddress());
        if (source != null && !perSource.tryAcquire(source)) {
            own.release();
            return false;
        }
        if (shared != null && !shared.tryAcquire()) {
            release(source, false);
            return false;
        }
        channels.add(channel);
        // Looked at again after the add, against close()'s write-then-snapshot: a channel either is in the
        // closer's snapshot or sees the close here, so none escapes a stop.
        if (closed) {
            channels.remove(channel);
            release(source, true);
            return false;
        }
        if (source == null) {
            channel.closeFuture().addListener(onClose);
        } else {
            channel.closeFuture().addListener((ChannelFutureListener) future -> {
                channels.remove(future.channel());
                release(source, true);
            });
        }
        return true;
    }

    /** Admits nothing more and returns the channels admitted until now: the ones a stop must close. */
    public Set<Channel> close() {
        closed = true;
        return channels();
    }

    public boolean isClosed() {
        return closed;
    }

    private void release() {
        release(null, true);
    }

    private void release(Object source, boolean sharedToo) {
        own.release();
        if (source != null) {
            perSource.release(source);
        }
        if (sharedToo && shared != null) {
            shared.release();
        }
    }

    public int active() {
        return own.held();
    }

    /** Bytes queued for writing and not yet taken by the sockets, over the open admitted channels. */
    public long pendingOutboundBytes() {
        long total = 0;
        for (Channel ch : channels) {
            ChannelOutboundBuffer buffer = ch.unsafe().outboundBuffer();
            if (buffer != null) {
                total += buffer.totalPendingWriteBytes();
            }
        }
        return total;
    }

    /** A snapshot of the open admitted channels. */
    public Set<Channel> channels() {
        return Set.copyOf(channels);
    }
}
