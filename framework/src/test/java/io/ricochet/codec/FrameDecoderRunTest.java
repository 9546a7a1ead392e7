package io.ricochet.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.ricochet.config.LengthField;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.MeterNames;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The decoder in run mode: a read's complete frames go downstream as one {@link FrameRun}. */
class FrameDecoderRunTest {
    private static final int MAX = 100;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ConnectionStats stats = new ConnectionStats(Meters.tcpMeters(registry));

    private EmbeddedChannel channel(LengthField field) {
        return new EmbeddedChannel(new FrameDecoder(ReplyFraming.runs(field, MAX), stats));
    }

    private static byte[] frames(LengthField field, int first, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            out.writeBytes(Frames.encode(field.width(), Frames.body(1 + (first + i) % 40, first + i)));
        }
        return out.toByteArray();
    }

    /** The run's frames as bytes, releasing the run. */
    private static byte[] contentOf(FrameRun run, int count) {
        try {
            assertEquals(count, run.count());
            return ByteBufUtil.getBytes(run.content());
        } finally {
            run.release();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void aReadOfWholeFramesGoesDownstreamAsOneRun(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            byte[] wire = frames(field, 0, 16);
            ByteBuf read = Unpooled.wrappedBuffer(wire);
            ch.writeInbound(read);
            FrameRun run = assertInstanceOf(FrameRun.class, ch.readInbound());
            assertArrayEquals(wire, contentOf(run, 16));
            assertEquals(0, read.refCnt(), "the read buffer goes back once the run is released");
            assertNull(ch.readInbound());
            stats.publish();
            assertEquals(16.0, Meters.count(registry, MeterNames.FRAMES_RECEIVED), "each frame counted once");
            assertEquals(wire.length, Meters.count(registry, MeterNames.BYTES_RECEIVED));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void aFrameSplitAcrossReadsIsHeldAndTheNextReadCompletesIt(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            byte[] wire = frames(field, 0, 5);
            int split = wire.length - 3;
            int firstFour = frames(field, 0, 4).length;
            ByteBuf first = Unpooled.wrappedBuffer(wire, 0, split);
            ch.writeInbound(first);
            assertArrayEquals(frames(field, 0, 4), contentOf(ch.readInbound(), 4));
            assertNull(ch.readInbound());

            ch.writeInbound(Unpooled.wrappedBuffer(wire, split, 3));
            byte[] last = new byte[wire.length - firstFour];
            System.arraycopy(wire, firstFour, last, 0, last.length);
            assertArrayEquals(last, contentOf(ch.readInbound(), 1));

            ByteBuf whole = Unpooled.wrappedBuffer(frames(field, 5, 2));
            ch.writeInbound(whole);
            assertArrayEquals(frames(field, 5, 2), contentOf(ch.readInbound(), 2));
            assertEquals(0, whole.refCnt(), "nothing is held once the frames are whole again");
            stats.publish();
            assertEquals(7.0, Meters.count(registry, MeterNames.FRAMES_RECEIVED));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void aBadLengthAfterWholeFramesFailsAfterThoseFramesGoDownstream(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            byte[] good = frames(field, 0, 3);
            ByteBuf read = Unpooled.buffer().writeBytes(good).writeZero(field.width() + 4);
            assertThrows(DecoderException.class, () -> ch.writeInbound(read));
            assertArrayEquals(good, contentOf(ch.readInbound(), 3));
            assertNull(ch.readInbound());
            assertEquals(0, read.refCnt());
            assertEquals(1.0, Meters.protocolErrors(registry, "tcp", "empty"));

            ByteBuf after = Unpooled.wrappedBuffer(frames(field, 3, 2));
            ch.writeInbound(after);
            assertNull(ch.readInbound(), "after a failure every byte is discarded");
            assertEquals(0, after.refCnt());
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void aTooLongLengthAfterWholeFramesFailsAfterThoseFramesGoDownstream(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            byte[] good = frames(field, 0, 2);
            ByteBuf read = Unpooled.buffer().writeBytes(good).writeBytes(Frames.header(field.width(), MAX + 1));
            assertThrows(DecoderException.class, () -> ch.writeInbound(read));
            assertArrayEquals(good, contentOf(ch.readInbound(), 2));
            assertNull(ch.readInbound());
            assertEquals(0, read.refCnt());
            assertEquals(1.0, Meters.protocolErrors(registry, "tcp", "too_long"));
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(LengthField.class)
    void aTooLongFirstFrameFailsWithoutHandingAnythingDown(LengthField field) {
        EmbeddedChannel ch = channel(field);
        try {
            ByteBuf read = Unpooled.wrappedBuffer(Frames.encode(field.width(), Frames.body(MAX + 1, 0)));
            assertThrows(DecoderException.class, () -> ch.writeInbound(read));
            assertNull(ch.readInbound());
            assertEquals(0, read.refCnt());
            assertEquals(1.0, Meters.protocolErrors(registry, "tcp", "too_long"));
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
