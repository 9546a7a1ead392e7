package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.ricochet.echo.BodyReverser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PayloadTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 8, 9, 63, 64, 65, 1023, 1024, 4094, 65_536})
    void aBodyVerifiesAsSentAndReversedAndAnyChangedByteDoesNot(int size) {
        Payload payload = new Payload(42, size, size);
        long base = payload.base(3, 17);
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(size);
        try {
            Payload.write(buf, base, size);
            assertEquals(size, buf.readableBytes());
            assertTrue(Payload.verifyEcho(buf, base, size), "as sent");
            assertFalse(size > 1 && Payload.verifyReversed(buf, base, size), "not reversed yet");
            assertEquals(-1, Payload.firstDifference(buf, base, size, false));
            for (int i : new int[] {0, size / 2, size - 1}) {
                buf.setByte(i, buf.getByte(i) ^ 1);
                assertFalse(Payload.verifyEcho(buf, base, size), "byte " + i + " changed");
                assertEquals(i, Payload.firstDifference(buf, base, size, false));
                buf.setByte(i, buf.getByte(i) ^ 1);
            }
            BodyReverser.reverseInPlace(buf);
            assertTrue(Payload.verifyReversed(buf, base, size));
            assertFalse(size > 1 && Payload.verifyEcho(buf, base, size), "reversed now");
            for (int i : new int[] {0, size / 2, size - 1}) {
                buf.setByte(i, buf.getByte(i) ^ 1);
                assertFalse(Payload.verifyReversed(buf, base, size), "byte " + i + " changed");
                assertEquals(i, Payload.firstDifference(buf, base, size, true));
                buf.setByte(i, buf.getByte(i) ^ 1);
            }
            assertFalse(Payload.verifyReversed(buf, payload.base(3, 18), size), "another request's body");
        } finally {
            buf.release();
        }
    }

    @Test
    void compositeBuffersTakeTheWordPath() {
        Payload payload = new Payload(1, 100, 100);
        long base = payload.base(0, 0);
        ByteBuf flat = Unpooled.buffer(100);
        Payload.write(flat, base, 100);
        CompositeByteBuf split = Unpooled.compositeBuffer();
        split.addComponents(true, flat.retainedSlice(0, 37), flat.retainedSlice(37, 63));
        try {
            assertTrue(Payload.verifyEcho(split, base, 100));
            BodyReverser.reverseInPlace(flat);
            assertTrue(Payload.verifyReversed(split, base, 100), "the slices share the bytes");
        } finally {
            split.release();
            flat.release();
        }
    }

    @Test
    void aReplyOfAnotherLengthNeverVerifies() {
        Payload payload = new Payload(1, 16, 16);
        long base = payload.base(0, 0);
        ByteBuf buf = Unpooled.buffer();
        try {
            Payload.write(buf, base, 16);
            assertFalse(Payload.verifyEcho(buf.slice(0, 15), base, 16));
            assertFalse(Payload.verifyEcho(buf, base, 15));
            assertEquals(-1, Payload.firstDifference(buf.slice(0, 15), base, 16, false), "a prefix differs nowhere");
        } finally {
            buf.release();
        }
    }

    @Test
    void sizesStayInTheRangeAndRepeatForTheSameRequest() {
        Payload payload = new Payload(9, 10, 20);
        for (long seq = 0; seq < 1000; seq++) {
            int size = payload.size(payload.base(5, seq));
            assertTrue(size >= 10 && size <= 20, "size " + size);
            assertEquals(size, payload.size(payload.base(5, seq)));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0|1|minSize: 0 (expected: >= 1)",
        "8|7|maxSize: 7 (expected: >= minSize, 8)",
    })
    void sizesAreChecked(int min, int max, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> new Payload(1, min, max))
                .getMessage());
    }
}
