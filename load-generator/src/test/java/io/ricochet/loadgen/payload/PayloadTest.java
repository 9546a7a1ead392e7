package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.ricochet.echo.BodyReverser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PayloadTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 8, 9, 63, 64, 65, 4094, 65_536})
    void aReversedBodyVerifiesAndAnyChangedByteDoesNot(int size) {
        Payload payload = new Payload(42, size, size);
        long base = payload.base(3, 17);
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(size);
        try {
            Payload.write(buf, base, size);
            assertEquals(size, buf.readableBytes());
            assertFalse(size > 1 && Payload.verifyReversed(buf, base, size), "not reversed yet");
            BodyReverser.reverseInPlace(buf);
            assertTrue(Payload.verifyReversed(buf, base, size));
            for (int i : new int[] {0, size / 2, size - 1}) {
                buf.setByte(i, buf.getByte(i) ^ 1);
                assertFalse(Payload.verifyReversed(buf, base, size), "byte " + i + " changed");
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
        BodyReverser.reverseInPlace(flat);
        CompositeByteBuf split = Unpooled.compositeBuffer();
        split.addComponents(true, flat.retainedSlice(0, 37), flat.retainedSlice(37, 63));
        try {
            assertTrue(Payload.verifyReversed(split, base, 100));
        } finally {
            split.release();
            flat.release();
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
}
