package io.ricochet.handler;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Admits TCP connections up to a listener's cap and within a budget it may share with other
 * listeners, and remembers the admitted ones until they close, so a graceful shutdown can reach each
 * of them. One close listener instance serves every channel.
 */
public final class ConnectionRegistry {
    private final ConnectionBudget own;
    private final ConnectionBudget shared;
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
        this.own = new ConnectionBudget(maxConnections);
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
        if (shared != null && !shared.tryAcquire()) {
            own.release();
            return false;
        }
        channels.add(channel);
        // Looked at again after the add, against close()'s write-then-snapshot: a channel either is in the
        // closer's snapshot or sees the close here, so none escapes a stop.
        if (closed) {
            channels.remove(channel);
            release();
            return false;
        }
        channel.closeFuture().addListener(onClose);
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
        own.release();
        if (shared != null) {
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
