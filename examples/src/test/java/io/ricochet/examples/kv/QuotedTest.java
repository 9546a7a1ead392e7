package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class QuotedTest {

    @Test
    void quotesEscapeAndCutWhatAPeerSent() {
        byte[] bytes = {'a', '"', '\\', '\n', 0, (byte) 0xff};
        assertEquals("\"a\\\"\\\\\\x0a\\x00\\xff\"", Quoted.of(ByteString.copyFrom(bytes)));
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            assertEquals(Quoted.of(ByteString.copyFrom(bytes)), Quoted.of(buf));
            assertEquals(0, buf.readerIndex());
        } finally {
            buf.release();
        }
        assertEquals("\"\\u043a\"", Quoted.of("к"));
        assertEquals("\"" + "x".repeat(Quoted.MAX_SHOWN) + "\"... (5 more)", Quoted.of("x".repeat(Quoted.MAX_SHOWN + 5)));
    }
}
