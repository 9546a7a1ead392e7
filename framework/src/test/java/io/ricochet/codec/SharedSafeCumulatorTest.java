package io.ricochet.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class SharedSafeCumulatorTest {
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;

    /** Regression: Netty's merge cumulator appends into a cumulation whose frames another thread still holds. */
    @Test
    void aCumulationWithFramesStillHeldIsNotWrittenTo() {
        ByteBuf cumulation = alloc.directBuffer(64).writeBytes(new byte[] {0, 2, 'h', 'i', 0, 3, 'a'});
        ByteBuf frame = cumulation.retainedSlice(2, 2);
        cumulation.skipBytes(4);
        ByteBuf in = Unpooled.wrappedBuffer(new byte[] {'b', 'c'});
        ByteBuf next = SharedSafeCumulator.INSTANCE.cumulate(alloc, cumulation, in);
        try {
            assertNotSame(cumulation, next, "appended into a buffer a frame still holds");
            assertArrayEquals(new byte[] {0, 3, 'a', 'b', 'c'}, ByteBufUtil.getBytes(next));
            assertArrayEquals(new byte[] {'h', 'i'}, ByteBufUtil.getBytes(frame));
            assertEquals(0, in.refCnt(), "the read buffer was released");
            assertEquals(1, frame.refCnt());
        } finally {
            next.release();
            frame.release();
        }
        assertEquals(0, cumulation.refCnt(), "the old cumulation is released once its frame is");
    }

    @Test
    void anUnsharedCumulationIsAppendedInPlace() {
        ByteBuf cumulation = alloc.directBuffer(64).writeBytes(new byte[] {0, 3, 'a'});
        ByteBuf in = Unpooled.wrappedBuffer(new byte[] {'b', 'c'});
        ByteBuf next = SharedSafeCumulator.INSTANCE.cumulate(alloc, cumulation, in);
        try {
            assertSame(cumulation, next);
            assertArrayEquals(new byte[] {0, 3, 'a', 'b', 'c'}, ByteBufUtil.getBytes(next));
            assertEquals(0, in.refCnt());
        } finally {
            next.release();
        }
    }

    /**
     * Regression: a full cumulation whose front was read grew in place, doubling from its write position (four
     * pipelined 64 KiB frames made 512 KiB a connection, and a server in 256 MiB ran out of direct memory).
     */
    @Test
    void aCumulationThatMustGrowKeepsOnlyItsUnreadBytes() {
        ByteBuf cumulation = alloc.directBuffer(256 * 1024, 256 * 1024 * 1024);
        cumulation.writerIndex(cumulation.capacity() - 3).writeBytes(new byte[] {0, 9, 'a'});
        cumulation.readerIndex(cumulation.capacity() - 3);
        byte[] read = new byte[64 * 1024];
        read[0] = 'b';
        ByteBuf in = Unpooled.wrappedBuffer(read);
        ByteBuf next = SharedSafeCumulator.INSTANCE.cumulate(alloc, cumulation, in);
        try {
            assertNotSame(cumulation, next);
            // Unread 3 bytes and the 64 KiB read, rounded up: 128 KiB, not the 512 KiB an in-place growth makes.
            assertEquals(128 * 1024, next.capacity());
            assertEquals(3 + read.length, next.readableBytes());
            assertArrayEquals(new byte[] {0, 9, 'a', 'b'}, ByteBufUtil.getBytes(next, next.readerIndex(), 4));
            assertEquals(0, cumulation.refCnt(), "the old cumulation was released");
            assertEquals(0, in.refCnt());
        } finally {
            next.release();
        }
    }

    @Test
    void anEmptyCumulationGivesWayToTheReadBuffer() {
        ByteBuf cumulation = alloc.directBuffer(8);
        ByteBuf in = alloc.directBuffer(8).writeBytes(new byte[] {0, 1, 'x'});
        ByteBuf next = SharedSafeCumulator.INSTANCE.cumulate(alloc, cumulation, in);
        try {
            assertSame(in, next);
            assertEquals(0, cumulation.refCnt());
        } finally {
            next.release();
        }
    }
}
