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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        ByteBuf first = all.retainedSlice(0, 8);
        ByteBuf second = all.retainedSlice(8, all.readableBytes() - 8);
        all.release();
        channel.writeInbound(first);
        assertArrayEquals(bytes(frames("eno")), bytes(channel.readOutbound()));
        channel.writeInbound(second);
        assertArrayEquals(bytes(frames("ereh-tilps")), bytes(channel.readOutbound()));
        assertEquals(0, all.refCnt(), "both reads released once their frames are answered");
        assertFalse(channel.finish());
    }

    @Test
    void aFrameSplitInsideItsLengthFieldAndOverThreeReadsIsAnsweredOnceWhole() {
        EmbeddedChannel channel = new EmbeddedChannel(new InPlaceFloorHandler());
        byte[] wire = bytes(frames("abcdefghij"));
        channel.writeInbound(Unpooled.wrappedBuffer(wire, 0, 1));
        channel.writeInbound(Unpooled.wrappedBuffer(wire, 1, 4));
        assertNull(channel.readOutbound(), "no whole frame yet");
        channel.writeInbound(Unpooled.wrappedBuffer(wire, 5, wire.length - 5));
        assertArrayEquals(bytes(frames("jihgfedcba")), bytes(channel.readOutbound()));
        assertFalse(channel.finish());
    }

    @Test
    void theLargestBodyIsAnswered() {
        EmbeddedChannel channel = new EmbeddedChannel(new InPlaceFloorHandler());
        String body = "x".repeat(NettyEchoServer.MAX_BODY - 1) + "y";
        channel.writeInbound(frames(body));
        assertArrayEquals(bytes(frames("y" + "x".repeat(NettyEchoServer.MAX_BODY - 1))), bytes(channel.readOutbound()));
        assertFalse(channel.finish());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, NettyEchoServer.MAX_BODY + 1, 0xFFFF})
    void aLengthOutOfRangeClosesTheConnectionAndReleasesTheRead(int length) {
        EmbeddedChannel channel = new EmbeddedChannel(new InPlaceFloorHandler());
        ByteBuf read = Unpooled.buffer().writeShort(length).writeZero(10);
        channel.writeInbound(read);
        assertFalse(channel.isOpen());
        assertEquals(0, read.refCnt());
        assertNull(channel.readOutbound());
    }

    @Test
    void aBadLengthInTheReadThatCompletesAPartialFrameClosesAndReleasesBoth() {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        EmbeddedChannel channel = new EmbeddedChannel(new InPlaceFloorHandler());
        channel.config().setAllocator(alloc);
        channel.writeInbound(Unpooled.buffer().writeShort(3).writeByte(1));
        ByteBuf rest = Unpooled.buffer().writeBytes(new byte[] {2, 3}).writeShort(0);
        channel.writeInbound(rest);
        assertFalse(channel.isOpen());
        assertEquals(0, rest.refCnt());
        assertEquals(0, usedBytes(alloc), "the kept partial and the joined read are both released");
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
