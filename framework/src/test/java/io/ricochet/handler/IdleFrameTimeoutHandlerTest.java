package io.ricochet.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.codec.FrameDecoder;
import io.ricochet.config.LengthField;
import io.ricochet.metrics.CloseReason;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.testing.Frames;
import io.ricochet.testing.Meters;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class IdleFrameTimeoutHandlerTest {
    private final ConnectionStats stats = Meters.tcpStats();

    private EmbeddedChannel channel() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(new FrameDecoder(LengthField.TWO, 100, stats),
                new IdleFrameTimeoutHandler(Duration.ofSeconds(2), stats));
        return ch;
    }

    private static void readAll(EmbeddedChannel ch) {
        Object msg;
        while ((msg = ch.readInbound()) != null) {
            ((ByteBuf) msg).release();
        }
    }

    @Test
    void closesAConnectionWithNoFrameForTheTimeout() {
        EmbeddedChannel ch = channel();
        try {
            ch.advanceTimeBy(1999, TimeUnit.MILLISECONDS);
            ch.runPendingTasks();
            assertTrue(ch.isOpen());
            ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
            ch.runPendingTasks();
            assertFalse(ch.isOpen());
            assertEquals(CloseReason.IDLE, stats.closeReason());
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aCompleteFrameRestartsTheClock() {
        EmbeddedChannel ch = channel();
        try {
            ch.advanceTimeBy(1500, TimeUnit.MILLISECONDS);
            ch.writeInbound(Unpooled.wrappedBuffer(Frames.encode(2, new byte[] {1})));
            readAll(ch);
            ch.advanceTimeBy(1500, TimeUnit.MILLISECONDS);
            ch.runPendingTasks();
            assertTrue(ch.isOpen(), "1.5 s since the last frame");
            ch.advanceTimeBy(500, TimeUnit.MILLISECONDS);
            ch.runPendingTasks();
            assertFalse(ch.isOpen());
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void bytesThatNeverCompleteAFrameDoNotKeepTheConnectionOpen() {
        EmbeddedChannel ch = channel();
        try {
            // One byte every 500 ms of a 50-byte frame: traffic, but no frame.
            ch.writeInbound(Unpooled.wrappedBuffer(Frames.header(2, 50)));
            for (int i = 0; i < 4; i++) {
                ch.advanceTimeBy(500, TimeUnit.MILLISECONDS);
                ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {1}));
                ch.runPendingTasks();
            }
            assertFalse(ch.isOpen());
            assertEquals(CloseReason.IDLE, stats.closeReason());
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
