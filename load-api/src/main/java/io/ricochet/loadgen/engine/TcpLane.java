package io.ricochet.loadgen.engine;

import io.netty.buffer.ByteBuf;
import io.ricochet.codec.FrameHeader;
import io.ricochet.codec.FrameRun;

/**
 * A lane over a stream (a TCP connection, or a QUIC stream): its requests coalesce into one write per fill, and the
 * framework's decoder hands it each read's replies as one {@link FrameRun}, checked where they lie.
 */
final class TcpLane extends FrameLane {
    TcpLane(HeldConnections load, LoopDriver driver, long id) {
        super(load, driver, id, true);
    }

    /**
     * Checks a read's replies where they lie, taking ownership: one clock reading for all of them (they arrived
     * together), each body shown to the check as the run's own buffer with its indices around that body, then the
     * requests they free go out together.
     */
    @Override
    protected void read(Object msg) {
        FrameRun run = (FrameRun) msg;
        try {
            ByteBuf frames = run.content();
            long now = System.nanoTime();
            int reader = frames.readerIndex();
            int writer = frames.writerIndex();
            int at = reader;
            int ended = 0;
            long batch = stats.beginReplies(driver.index());
            try {
                for (int i = run.count(); i > 0; i--) {
                    int length = (int) FrameHeader.getLength(frames, at, width);
                    int body = at + width;
                    frames.setIndex(body, body + length);
                    ended += reply(frames, length, now);
                    at = body + length;
                }
            } finally {
                frames.setIndex(reader, writer);
                stats.endReplies(driver.index(), batch);
            }
            afterReplies(ended, now);
        } finally {
            run.release();
        }
    }
}
