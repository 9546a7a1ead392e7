package io.ricochet.echo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.ricochet.testing.Frames;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BodyReverserTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 33, 64, 100, 4094, 65_536})
    void reversesHeapAndDirectBuffersAtAnyOffset(int length) {
        byte[] body = Frames.body(length, length);
        for (int offset : new int[] {0, 1, 2, 4}) {
            ByteBuf heap = Unpooled.buffer(offset + length).writeZero(offset).writeBytes(body).skipBytes(offset);
            ByteBuf direct = PooledByteBufAllocator.DEFAULT.directBuffer(offset + length).writeZero(offset)
                    .writeBytes(body).skipBytes(offset);
            try {
                BodyReverser.reverseInPlace(heap);
                BodyReverser.reverseInPlace(direct);
                assertArrayEquals(Frames.reversed(body), ByteBufUtil.getBytes(heap), "heap, offset " + offset);
                assertArrayEquals(Frames.reversed(body), ByteBufUtil.getBytes(direct), "direct, offset " + offset);
                BodyReverser.reverseBytewise(heap);
                assertArrayEquals(body, ByteBufUtil.getBytes(heap), "bytewise undoes it");
            } finally {
                heap.release();
                direct.release();
            }
        }
    }
}
