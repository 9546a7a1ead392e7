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
    void writesTheLengthIntoHeadroomWithoutCopying(LengthField field) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(field, MAX, new ConnectionStats(meters)));
        try {
            byte[] wire = Frames.encode(field.width(), new byte[] {1, 2, 3});
            ByteBuf body = Unpooled.buffer(wire.length).writeZero(field.width()).writeBytes(new byte[] {1, 2, 3});
            body.readerIndex(field.width());
            ch.writeOutbound(body);
            ByteBuf out = ch.readOutbound();
            assertSame(body, out, "the body buffer itself carries the frame");
            assertArrayEquals(wire, ByteBufUtil.getBytes(out));
            out.release();
            assertNull(ch.readOutbound());
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
