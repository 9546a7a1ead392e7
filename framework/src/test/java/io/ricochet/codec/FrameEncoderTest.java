package io.ricochet.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import io.ricochet.config.LengthField;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.Frames;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.testing.Meters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FrameEncoderTest {
    private static final int MAX = 100;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMeters meters = Meters.tcpMeters(registry);

    private static byte[] drain(EmbeddedChannel ch) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ByteBuf buf;
        while ((buf = ch.readOutbound()) != null) {
            out.writeBytes(ByteBufUtil.getBytes(buf));
            buf.release();
        }
        return out.toByteArray();
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void writesTheLengthIntoTheHeadroomOfAnAllocatedBodyWithoutCopying(LengthField field) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(field, MAX, new ConnectionStats(meters)));
        try {
            ByteBuf body = FrameHeader.allocateBody(ch.alloc(), field.width(), 3).writeBytes(new byte[] {1, 2, 3});
            ch.writeOutbound(body);
            ByteBuf out = ch.readOutbound();
            assertSame(body, out, "the body buffer itself carries the frame");
            assertArrayEquals(Frames.encode(field.width(), new byte[] {1, 2, 3}), ByteBufUtil.getBytes(out));
            out.release();
            assertNull(ch.readOutbound());
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void neverWritesIntoABufferWhoseReaderIndexMerelyEqualsTheWidth(LengthField field) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(field, MAX, new ConnectionStats(meters)));
        try {
            byte[] own = {9, 9, 9, 9, 1, 2, 3};
            byte[] before = own.clone();
            ByteBuf body = Unpooled.wrappedBuffer(own, 4 - field.width(), field.width() + 3).readerIndex(field.width());
            ch.writeOutbound(body);
            assertArrayEquals(Frames.encode(field.width(), new byte[] {1, 2, 3}), drain(ch));
            assertArrayEquals(before, own, "the caller's bytes before the reader index");
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void framesAViewOfAnAllocatedBodyBehindAHeader(LengthField field) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(field, MAX, new ConnectionStats(meters)));
        try {
            ByteBuf body = FrameHeader.allocateBody(ch.alloc(), field.width(), 2).writeBytes(new byte[] {7, 8});
            ch.writeOutbound(body.retainedDuplicate());
            ByteBuf header = ch.readOutbound();
            assertEquals(field.width(), header.readableBytes(), "a header buffer of its own");
            header.release();
            ByteBuf out = ch.readOutbound();
            assertArrayEquals(new byte[] {7, 8}, ByteBufUtil.getBytes(out));
            out.release();
            assertArrayEquals(new byte[field.width()], ByteBufUtil.getBytes(body, 0, field.width()),
                    "the allocated body's headroom is untouched");
            body.release();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    /** Writes back the first frame at once, as an echo handler does; keeps the second to write after the read. */
    private static final class AnswerFirstNowSecondLater extends ChannelInboundHandlerAdapter {
        ByteBuf later;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (later == null && ((ByteBuf) msg).getByte(((ByteBuf) msg).readerIndex()) == 2) {
                later = (ByteBuf) msg;
            } else {
                ctx.write(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void framesTheDecodersFrameInPlaceOnlyWhileItIsHandedDownstream(LengthField field) {
        var stats = new ConnectionStats(meters);
        ReplyFraming framing = ReplyFraming.perFrame(field, MAX);
        AnswerFirstNowSecondLater handler = new AnswerFirstNowSecondLater();
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(framing, stats), new FrameEncoder(framing, stats),
                handler);
        try {
            byte[] first = Frames.encode(field.width(), new byte[] {1, 1});
            byte[] second = Frames.encode(field.width(), new byte[] {2, 2, 2});
            ByteBuf wire = Unpooled.buffer().writeBytes(first).writeBytes(second);
            ch.writeInbound(wire);
            ByteBuf out = ch.readOutbound();
            assertArrayEquals(first, ByteBufUtil.getBytes(out), "answered while handed downstream: in place");
            out.release();
            assertNull(ch.readOutbound());

            ch.writeOutbound(handler.later);
            ByteBuf header = ch.readOutbound();
            assertEquals(field.width(), header.readableBytes(), "answered after the read: a header of its own");
            header.release();
            out = ch.readOutbound();
            assertArrayEquals(new byte[] {2, 2, 2}, ByteBufUtil.getBytes(out));
            out.release();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void prependsAHeaderBufferWhenThereIsNoHeadroom(LengthField field) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(field, MAX, new ConnectionStats(meters)));
        try {
            ch.writeOutbound(Unpooled.wrappedBuffer(new byte[] {4, 5}));
            assertArrayEquals(Frames.encode(field.width(), new byte[] {4, 5}), drain(ch));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void rejectsAReplyOverTheMaxFrame() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(LengthField.TWO, MAX, new ConnectionStats(meters)));
        try {
            ByteBuf tooLong = Unpooled.buffer(MAX + 1).writeZero(MAX + 1);
            ChannelFuture f = ch.writeAndFlush(tooLong);
            assertFalse(f.isSuccess());
            assertEquals(EncoderException.class, f.cause().getClass());
            assertEquals(0, tooLong.refCnt(), "the rejected body is released");
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void passesAnEmptyBufferThroughAsAFlushMarkerAndPublishesCountsOnFlush() {
        var stats = new ConnectionStats(meters);
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(LengthField.TWO, MAX, stats));
        try {
            ch.write(Unpooled.wrappedBuffer(new byte[] {1}));
            assertEquals(0.0, Meters.count(registry, MeterNames.FRAMES_SENT), "counts wait for the flush");
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER);
            assertEquals(1.0, Meters.count(registry, MeterNames.FRAMES_SENT));
            assertEquals(3.0, Meters.count(registry, MeterNames.BYTES_SENT));
            assertArrayEquals(Frames.encode(2, new byte[] {1}), drain(ch));
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
