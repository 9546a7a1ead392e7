package io.ricochet.transport;

import io.netty.channel.AdaptiveRecvByteBufAllocator;

/**
 * How stream connections size their reads: one {@link AdaptiveRecvByteBufAllocator} for all the connections of a
 * listener or a client, where Netty's default gives each channel its own (32 B of heap apiece, at a million held
 * connections 32 MB). Each channel still adapts on its own: the allocator keeps nothing per channel, its handles do.
 *
 * <pre>{@code
 * bootstrap.option(ChannelOption.RECVBUF_ALLOCATOR, StreamReads.sharedAllocator());
 * }</pre>
 */
public final class StreamReads {
    /** Reads per read event before the loop moves on: Netty's default for socket channels. */
    public static final int MAX_MESSAGES_PER_READ = 16;

    private StreamReads() {
    }

    /**
     * A new allocator for many channels to share. Netty sets a channel's own allocator to the channel's default of
     * 16 reads per event; a shared one must be told, or it stays at 1.
     */
    public static AdaptiveRecvByteBufAllocator sharedAllocator() {
        return (AdaptiveRecvByteBufAllocator) new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(MAX_MESSAGES_PER_READ);
    }
}
