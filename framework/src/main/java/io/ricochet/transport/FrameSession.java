package io.ricochet.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import java.net.SocketAddress;

/** One TCP connection, or one UDP peer, as a {@link FrameHandler} sees it. */
public interface FrameSession {

    /**
     * Sends {@code body} as one frame and takes ownership of it. Called from {@link FrameHandler#onFrame},
     * the reply is flushed with the rest of the read batch; called later (a timer, another thread), it is
     * flushed at once.
     * A body with headroom (one received from {@link FrameHandler#onFrame}, or from {@link #allocateBody})
     * is framed without a copy.
     */
    void reply(ByteBuf body);

    /**
     * As {@link #reply(ByteBuf)}, then runs {@code whenDone} on the event loop once the frame has left
     * the outbound buffer: written to the socket, or failed because the session closed. Lets a caller
     * account for bytes it queued until they are gone.
     */
    void reply(ByteBuf body, Runnable whenDone);

    /**
     * False while replies queued on this session exceed its high write-buffer watermark (the peer is
     * not reading fast enough); always true for UDP. Thread-safe.
     */
    boolean isWritable();

    /** A pooled buffer for a reply body, with headroom for the length field so {@link #reply} copies nothing. */
    ByteBuf allocateBody(int capacity);

    ByteBufAllocator alloc();

    /** The event loop that runs this session's callbacks. */
    EventLoop eventLoop();

    SocketAddress remoteAddress();

    Protocol protocol();

    /** Flushes the replies already given, then closes (TCP) or forgets the peer (UDP). */
    void close();

    /**
     * Closes at once, dropping replies not yet written: for a peer that has stopped reading what it is
     * sent. Counted as {@code reason=stalled}. UDP forgets the peer, as {@link #close} does.
     */
    void abort();

    /** Per-session state of a protocol layered on frames (the RPC layer keeps its connection here). */
    void attach(Object attachment);

    /** What {@link #attach} stored, or null. Read and written on the session's event loop. */
    Object attachment();
}
