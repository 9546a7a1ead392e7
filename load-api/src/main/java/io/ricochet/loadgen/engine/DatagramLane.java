package io.ricochet.loadgen.engine;

import io.netty.buffer.ByteBuf;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.codec.FrameHeader;

/**
 * A lane over a connected UDP socket, one request in flight. A request that times out is an error and is remembered,
 * so its reply, if it comes late, is recognised and counted as late rather than ok or bad.
 */
final class DatagramLane extends FrameLane {
    private static final int REMEMBERED = 8;
    private final long[] abandoned = new long[REMEMBERED];
    private final long[] abandonedSentAt = new long[REMEMBERED];
    private int abandonedCount;

    DatagramLane(HeldConnections load, LoopDriver driver, long id) {
        super(load, driver, id, false);
    }

    @Override
    protected void read(Object msg) {
        ByteBuf content = msg instanceof DatagramPacket packet ? packet.content() : (ByteBuf) msg;
        try {
            int size = content.readableBytes();
            if (size < width || FrameHeader.getLength(content, content.readerIndex(), width) != size - width) {
                unexpected("a datagram of " + size + " bytes whose length field does not match it");
                return;
            }
            content.skipBytes(width);
            long now = System.nanoTime();
            int ended;
            long batch = stats.beginReplies(driver.index());
            try {
                ended = reply(content, size - width, now);
            } finally {
                stats.endReplies(driver.index(), batch);
            }
            afterReplies(ended, now);
        } finally {
            content.release();
        }
    }

    @Override
    protected void timedOut(long oldestSeq, long sentNanos) {
        int slot = abandonedCount++ % REMEMBERED;
        abandoned[slot] = oldestSeq;
        abandonedSentAt[slot] = sentNanos;
        abandonOldest();
        fill(System.nanoTime());
        flush();
        closeIfRetired();
    }

    @Override
    protected boolean isLateReply(ByteBuf body) {
        int n = Math.min(abandonedCount, REMEMBERED);
        int reader = body.readerIndex();
        for (int i = 0; i < n; i++) {
            boolean late;
            try {
                late = CallLane.nonNull(conversation.check(contextOf(abandoned[i], abandonedSentAt[i]), body)).isOk();
            } catch (RuntimeException e) {
                late = false;
            }
            body.readerIndex(reader);
            if (late) {
                stats.late.increment();
                return true;
            }
        }
        return false;
    }
}
