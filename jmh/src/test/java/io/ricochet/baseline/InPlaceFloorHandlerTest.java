package io.ricochet.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class InPlaceFloorHandlerTest {

    private static ByteBuf frames(String... bodies) {
        ByteBuf buf = Unpooled.buffer();
        for (String body : bodies) {
            buf.writeShort(body.length()).writeBytes(body.getBytes(StandardCharsets.US_ASCII));
        }
        return buf;
    }

    private static byte[] bytes(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void answersEveryWholeFrameOfAReadReversedInOneWrite() {
        EmbeddedChannel channel = new EmbeddedChannel(new InPlaceFloorHandler());
        channel.writeInbound(frames("abcdefghijklmnopqrs", "xy"));
        assertArrayEquals(bytes(frames("srqponmlkjihgfedcba", "yx")), bytes(channel.readOutbound()));
        assertNull(channel.readOutbound());
        assertFalse(channel.finish());
    }

    @Test
    void aFrameSplitAcrossReadsIsAnsweredOnceWhole() {
        EmbeddedChannel channel = new EmbeddedChannel(new InPlaceFloorHandler());
        ByteBuf all = frames("one", "split-here");
        channel.writeInbound(all.retainedSlice(0, 8));
        assertArrayEquals(bytes(frames("eno")), bytes(channel.readOutbound()));
        channel.writeInbound(all.retainedSlice(8, all.readableBytes() - 8));
        all.release();
        assertArrayEquals(bytes(frames("ereh-tilps")), bytes(channel.readOutbound()));
        assertFalse(channel.finish());
    }

    @Test
    void aLengthOutOfRangeClosesTheConnection() {
        EmbeddedChannel channel = new EmbeddedChannel(new InPlaceFloorHandler());
        channel.writeInbound(Unpooled.buffer().writeShort(4095).writeZero(10));
        assertFalse(channel.isOpen());
        assertNull(channel.readOutbound());
    }

    @Test
    void aConnectionClosedInsideAFrameReleasesWhatItKept() {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        EmbeddedChannel channel = new EmbeddedChannel(new InPlaceFloorHandler());
        channel.config().setAllocator(alloc);
        ByteBuf tail = Unpooled.buffer().writeShort(10).writeBytes(new byte[] {1, 2, 3});
        channel.writeInbound(tail);
        assertEquals(0, tail.refCnt(), "the read buffer goes back once its frame's start is copied");
        assertEquals(5, usedBytes(alloc), "the frame's start is kept");
        assertNull(channel.readOutbound());
        assertFalse(channel.finish());
        assertEquals(0, usedBytes(alloc), "and released when the connection closes");
    }

    private static long usedBytes(UnpooledByteBufAllocator alloc) {
        return alloc.metric().usedHeapMemory() + alloc.metric().usedDirectMemory();
    }
}
