package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;
import io.ricochet.codec.FrameHeader;
import io.ricochet.codec.FrameRun;
import io.ricochet.metrics.CloseReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a read's frames for an {@link InPlaceFrameHandler}: each body rewritten where it lies, and the run written
 * back as the replies, with no per-frame slice or write. If the handler fails on a frame, the frames before it are
 * answered and the connection closes. Holds nothing of its own, so an idle connection carries no instance of it.
 */
final class InPlaceReplies {
    private static final Logger log = LoggerFactory.getLogger(InPlaceReplies.class);

    private InPlaceReplies() {
    }

    /** Takes ownership of {@code run}, whose frames have length fields as wide as {@code session}'s. */
    static void answer(FrameRun run, InPlaceFrameHandler rewriter, TcpFrameSession session) {
        int width = session.width();
        ByteBuf frames = run.content();
        int count = run.count();
        int at = frames.readerIndex();
        int done = 0;
        try {
            for (; done < count; done++) {
                int length = (int) FrameHeader.getLength(frames, at, width);
                rewriter.rewrite(frames, at + width, length);
                at += width + length;
            }
        } catch (Error e) {
            run.release();
            throw e;
        } catch (RuntimeException e) {
            FrameRun answered = done == 0 ? null : run.retainedPrefix(done, at - frames.readerIndex());
            run.release();
            log.warn("closing {}: frame handler failed", session.remoteAddress(), e);
            // The failed frame was taken, as on the per-frame path; those after it arrived after the close began.
            session.stats().framesUnread(count - done - 1);
            session.answeredBeforeFailure(answered, done);
            session.closeGracefully(CloseReason.ERROR);
            return;
        }
        session.answered(run, count);
    }
}
