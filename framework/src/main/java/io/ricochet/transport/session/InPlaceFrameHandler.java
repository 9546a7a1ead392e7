package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;

/**
 * A {@link FrameHandler} whose reply to every frame is that frame, rewritten in place to a body of the same length
 * (the echo protocols). A TCP server then answers a whole read at once: every complete frame in it is rewritten
 * inside the read buffer, and the run of frames goes back as one write, received length fields and all, with no
 * per-frame slice, pipeline traversal or write. Elsewhere (UDP, or a pipeline customizer that does not declare
 * {@link io.ricochet.transport.PipelineCustomizer#keepsFrameRuns}) each frame goes through {@link #onFrame}, which does
 * the same one frame at a time.
 */
public interface InPlaceFrameHandler extends FrameHandler {

    /**
     * Turns the body at {@code buf[index, index + length)} into its reply, in place. Runs on the session's event
     * loop; must not block, keep {@code buf}, or touch bytes outside the range. Throwing closes a TCP connection
     * (reason {@code error}) after the replies to the frames before this one; a UDP datagram is dropped.
     */
    void rewrite(ByteBuf buf, int index, int length);

    @Override
    default void onFrame(FrameSession session, ByteBuf body) {
        try {
            rewrite(body, body.readerIndex(), body.readableBytes());
        } catch (RuntimeException e) {
            body.release();
            throw e;
        }
        session.send(body);
    }
}
