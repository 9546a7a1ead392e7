package io.ricochet.handler;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class BackpressureHandlerTest {

    @Test
    void pausesReadingAboveTheHighWatermarkAndResumesBelowTheLow() {
        EmbeddedChannel ch = new EmbeddedChannel(BackpressureHandler.INSTANCE);
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
        try {
            assertTrue(ch.config().isAutoRead());
            ch.write(Unpooled.buffer(32).writeZero(32));
            assertFalse(ch.isWritable());
            assertFalse(ch.config().isAutoRead(), "reading pauses while replies queue up");
            ch.flush();
            assertTrue(ch.isWritable());
            assertTrue(ch.config().isAutoRead(), "reading resumes once they drain");
            ByteBuf out = ch.readOutbound();
            out.release();
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
