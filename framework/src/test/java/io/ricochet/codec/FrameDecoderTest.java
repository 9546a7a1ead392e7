package io.ricochet.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.config.LengthField;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.Frames;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.testing.Meters;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FrameDecoderTest {
    private static final int MAX = 100;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMeters meters = Meters.tcpMeters(registry);

    private EmbeddedChannel channel(LengthField field) {
        return new EmbeddedChannel(new FrameDecoder(field, MAX, new ConnectionStats(meters)));
    }

    private static byte[] bodyOf(ByteBuf frame) {
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void decodesOneByteBody(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            assertTrue(ch.writeInbound(Unpooled.wrappedBuffer(Frames.encode(field.width(), new byte[] {42}))));
            assertArrayEquals(new byte[] {42}, bodyOf(ch.readInbound()));
            assertNull(ch.readInbound());
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void decodesMaxFrameAndKeepsHeaderAsHeadroom(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            byte[] body = Frames.body(MAX, 1);
            ch.writeInbound(Unpooled.wrappedBuffer(Frames.encode(field.width(), body)));
            ByteBuf frame = ch.readInbound();
            assertEquals(field.width(), frame.readerIndex(), "the length field stays before the body as headroom");
            assertArrayEquals(body, bodyOf(frame));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void rejectsMaxPlusOneAsSoonAsTheFieldArrives(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            // Only the field: the decoder must not wait for the body.
            ByteBuf header = Unpooled.wrappedBuffer(Frames.header(field.width(), MAX + 1));
            assertThrows(FrameTooLongException.class, () -> ch.writeInbound(header));
            assertEquals(1.0, Meters.protocolErrors(registry, "tcp", "too_long"));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void rejectsZeroLength(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            ByteBuf header = Unpooled.wrappedBuffer(Frames.header(field.width(), 0));
            assertThrows(EmptyFrameException.class, () -> ch.writeInbound(header));
            assertEquals(1.0, Meters.protocolErrors(registry, "tcp", "empty"));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void passesOnFramesBeforeABadOneAndDiscardsTheRest(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(Frames.encode(field.width(), new byte[] {1, 2}));
            bytes.writeBytes(Frames.header(field.width(), 0));
            bytes.writeBytes(Frames.encode(field.width(), new byte[] {3}));
            assertThrows(EmptyFrameException.class, () -> ch.writeInbound(Unpooled.wrappedBuffer(bytes.toByteArray())));
            assertArrayEquals(new byte[] {1, 2}, bodyOf(ch.readInbound()));
            assertNull(ch.readInbound(), "nothing after the bad frame is decoded");
            ch.writeInbound(Unpooled.wrappedBuffer(Frames.encode(field.width(), new byte[] {4})));
            assertNull(ch.readInbound(), "input after a failure is discarded");
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void reassemblesAFrameSplitAtEveryByte(LengthField field) {
        byte[] body = Frames.body(MAX, 7);
        byte[] wire = Frames.encode(field.width(), body);
        for (int split = 1; split < wire.length; split++) {
            EmbeddedChannel ch = channel(field);
            try {
                ch.writeInbound(Unpooled.wrappedBuffer(wire, 0, split));
                assertNull(ch.readInbound(), "no frame before byte " + split + " completes it");
                ch.writeInbound(Unpooled.wrappedBuffer(wire, split, wire.length - split));
                assertArrayEquals(body, bodyOf(ch.readInbound()), "split at " + split);
            } finally {
                ch.finishAndReleaseAll();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void reassemblesAFrameFedOneByteAtATime(LengthField field) {
        byte[] body = Frames.body(MAX, 8);
        byte[] wire = Frames.encode(field.width(), body);
        EmbeddedChannel ch = channel(field);
        try {
            for (byte b : wire) {
                assertNull(ch.readInbound());
                ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
            }
            assertArrayEquals(body, bodyOf(ch.readInbound()));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void decodesAThousandCoalescedFramesInOrder(LengthField field) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++) {
            bytes.writeBytes(Frames.encode(field.width(), Frames.body(1 + i % MAX, i)));
        }
        EmbeddedChannel ch = channel(field);
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(bytes.toByteArray()));
            for (int i = 0; i < 1000; i++) {
                assertArrayEquals(Frames.body(1 + i % MAX, i), bodyOf(ch.readInbound()), "frame " + i);
            }
            assertNull(ch.readInbound());
            ch.flushInbound();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void countsAPartialFrameAtEndOfStreamAsTruncated(LengthField field) {
        EmbeddedChannel ch = channel(field);
        byte[] wire = Frames.encode(field.width(), new byte[] {1, 2, 3});
        ch.writeInbound(Unpooled.wrappedBuffer(wire, 0, wire.length - 1));
        assertFalse(ch.finishAndReleaseAll(), "the partial frame is dropped");
        assertEquals(1.0, Meters.protocolErrors(registry, "tcp", "truncated"));
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void countsBytesAndFramesOnPublish(LengthField field) {
        var stats = new ConnectionStats(meters);
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(field, MAX, stats));
        try {
            byte[] wire = Frames.encode(field.width(), new byte[] {9, 9});
            ch.writeInbound(Unpooled.wrappedBuffer(wire), Unpooled.wrappedBuffer(wire));
            bodyOf(ch.readInbound());
            bodyOf(ch.readInbound());
            assertEquals(0.0, Meters.count(registry, MeterNames.FRAMES_RECEIVED), "nothing published mid-batch");
            stats.publish();
            assertEquals(2.0, Meters.count(registry, MeterNames.FRAMES_RECEIVED));
            assertEquals(2.0 * wire.length, Meters.count(registry, MeterNames.BYTES_RECEIVED));
            assertTrue(Meters.protocolErrors(registry, "tcp", "truncated") == 0.0);
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void vouchesForNothingWhenOnlyHeadroomIsFramedInPlace(LengthField field) {
        ReplyFraming framing = ReplyFraming.headroomOnly(field, MAX);
        FrameDecoder decoder = new FrameDecoder(framing, new ConnectionStats(meters));
        List<Boolean> vouched = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                vouched.add(framing.isFrameInHand((ByteBuf) msg));
                ((ByteBuf) msg).release();
            }
        });
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(Frames.encode(field.width(), new byte[] {1, 2})));
            assertEquals(List.of(false), vouched);
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void vouchesOnlyForTheFrameBeingHandedDownstreamAndOnlyWhileItIs(LengthField field) {
        ReplyFraming framing = ReplyFraming.perFrame(field, MAX);
        FrameDecoder decoder = new FrameDecoder(framing, new ConnectionStats(meters));
        List<String> seen = new ArrayList<>();
        List<ByteBuf> kept = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf frame = (ByteBuf) msg;
                seen.add("frame " + framing.isFrameInHand(frame));
                seen.add("duplicate " + framing.isFrameInHand(frame.duplicate()));
                seen.add("earlier " + (!kept.isEmpty() && framing.isFrameInHand(kept.get(0))));
                kept.add(frame);
            }
        });
        try {
            byte[] wire = Frames.encode(field.width(), new byte[] {1, 2});
            ByteBuf read = Unpooled.buffer().writeBytes(wire).writeBytes(wire);
            ch.writeInbound(read);
            assertEquals(List.of("frame true", "duplicate false", "earlier false",
                    "frame true", "duplicate false", "earlier false"), seen);
            assertFalse(framing.isFrameInHand(kept.get(1)), "once the read is over");
            assertEquals(2, read.refCnt(), "the read buffer is held by its two frames only");
        } finally {
            kept.forEach(ByteBuf::release);
            ch.finishAndReleaseAll();
        }
    }
}
