package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.ricochet.transport.Protocol;
import java.net.SocketAddress;

/** One TCP connection, or one UDP peer, as a {@link FrameHandler} sees it: at a server or at a client. */
public interface FrameSession {

    /**
     * Sends {@code body} as one frame and takes ownership of it: a reply at a server, a request at a
     * client. Called from {@link FrameHandler#onFrame}, it is flushed with the rest of the read batch;
     * called later (a timer, another thread), by one flush task queued behind it for all the sends made before
     * it runs, or at once after 64 unflushed sends or when the channel turns unwritable. Frames sent from one
     * thread go out in the order sent. Once the session is closing, bodies are released unsent.
     *
     * <p>Any buffer is framed correctly, and a buffer of the caller's is never written to, whatever its reader index.
     * Only two kinds of buffer carry headroom the framework may write the length into, so that the frame goes out as
     * that one buffer with no copy and no header buffer:
     * <ul>
     * <li>the body given to {@link FrameHandler#onFrame}, sent before {@code onFrame} returns, itself (not a
     * duplicate, slice or view) and with its reader index where it was given (the echo path: change the body in
     * place and send it);</li>
     * <li>a buffer from {@link #allocateBody}, itself, its reader index still where it was returned.</li>
     * </ul>
     * Anything else (a buffer of the caller's, one partly read, a duplicate or slice, a composite, a read-only view,
     * or a received body sent after {@code onFrame} returned) is framed without being touched: on TCP behind a
     * small header buffer, on UDP copied into the datagram. To reply later without that cost, write the reply into a
     * buffer from {@link #allocateBody}.
     */
    void send(ByteBuf body);

    /**
     * As {@link #send(ByteBuf)}, then runs {@code whenDone} on the event loop once the frame has left
     * the outbound buffer: written to the socket, or failed or dropped because the session closed. Lets a
     * caller account for bytes it queued until they are gone.
     */
    void send(ByteBuf body, Runnable whenDone);

    /**
     * False while replies queued on this session exceed its high write-buffer watermark (the peer is
     * not reading fast enough); always true for UDP. Thread-safe.
     */
    boolean isWritable();

    /** Whether a graceful stop is under way: new work should be refused. Thread-safe; always false for UDP. */
    boolean isDraining();

    /**
     * Frames handed to the handler and not yet matched by a frame sent: what a one-reply-per-frame
     * protocol still owes. Event-loop confined; always 0 for UDP.
     */
    long unansweredFrames();

    /**
     * A pooled buffer for a body of about {@code capacity} bytes, with headroom for the length field before its
     * reader index, so {@link #send} frames it in place and copies nothing. Write the body after the writer index;
     * the bytes before the reader index are the framework's. Thread-safe.
     */
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

    /**
     * Closes at once, as a connection over a bound is: for a peer owed nothing, such as one displaced before it
     * authenticated, whose place is wanted now, not after a lingering close. Counted as {@code reason=limit}. UDP
     * forgets the peer, as {@link #close} does.
     */
    default void shed() {
        abort();
    }

}
