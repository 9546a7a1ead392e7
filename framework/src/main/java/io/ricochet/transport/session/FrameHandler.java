package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;

/**
 * What a server does with each frame. One instance serves every session of a server, on several event
 * loops at once, so it must be thread-safe; each callback for a given session runs on that session's
 * event loop and must not block it (hand blocking work to an executor and reply from there).
 */
@FunctionalInterface
public interface FrameHandler {

    /**
     * Handles one complete frame. {@code body} holds exactly the frame's body between its reader and
     * writer indices; the handler owns it and must either pass it to {@link FrameSession#send} or
     * release it. Throwing closes a TCP connection (reason {@code error}); a UDP datagram is dropped.
     */
    void onFrame(FrameSession session, ByteBuf body);

    default void sessionOpened(FrameSession session) {
    }

    /**
     * Whether {@code session} still owes replies to frames it took. While it does, the idle timeout does not
     * close a TCP connection, and a close the transport starts (a graceful stop, the peer's half-close, a
     * malformed frame) waits for them; a stop waits up to its shutdown timeout. The default fits one reply per
     * frame; a protocol with another ratio (one-way frames, several replies, frames it drops) must say what it
     * owes, or a frame it never answers holds its connection open. Runs on the session's event loop.
     */
    default boolean owesReplies(FrameSession session) {
        return session.unansweredFrames() > 0;
    }

    /**
     * Whether frames that arrive during a graceful stop still reach {@link #onFrame}, with
     * {@link FrameSession#isDraining()} true: for a protocol whose owed work waits on the peer (the answers to
     * its own calls), which should refuse new work then. By default they are discarded unserved.
     */
    default boolean receivesWhileDraining(FrameSession session) {
        return false;
    }

    /**
     * No frame reaches {@link #onFrame} after this: the peer ended its stream (a FIN, or a reset), or the connection
     * began to close, and what arrives from now on is discarded. Replies may still go out until it closes. A handler
     * waiting for frames (the answers to its own calls) should give up on them here, not at {@link #sessionClosed}: a
     * close waits for the replies {@link #owesReplies owed}, then lingers, so that may come much later. Called once,
     * before {@code sessionClosed}, on the session's event loop; for TCP connections and QUIC streams, never for a UDP
     * peer, which has no end of stream.
     */
    default void inputEnded(FrameSession session) {
    }

    /** The session's {@link FrameSession#isWritable()} changed: a handler sending from elsewhere may pause or go on. */
    default void writabilityChanged(FrameSession session) {
    }

    default void sessionClosed(FrameSession session) {
    }
}
