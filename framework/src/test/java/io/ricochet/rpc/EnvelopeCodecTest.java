package io.ricochet.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.StatusCode;
import org.junit.jupiter.api.Test;

class EnvelopeCodecTest {

    @Test
    void roundTripsEveryFieldThroughAPooledDirectBuffer() throws Exception {
        Envelope sent = Envelope.newBuilder().setId(Long.MAX_VALUE).setKind(Kind.RESPONSE).setMethod("m")
                .setTimeoutMicros(1234).setStatus(StatusCode.INTERNAL).setMessage("why")
                .setPayload(ByteString.copyFrom(new byte[] {1, 2, 3})).build();
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(4 + sent.getSerializedSize());
        buf.writerIndex(4).readerIndex(4);
        EnvelopeCodec.writeTo(sent, sent.getSerializedSize(), buf);
        assertEquals(sent.getSerializedSize(), buf.readableBytes());
        assertEquals(sent, EnvelopeCodec.decode(buf));
        assertEquals(0, buf.refCnt());
    }

    @Test
    void garbageFailsToParseAndIsStillReleased() {
        ByteBuf garbage = Unpooled.directBuffer().writeBytes(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
        assertThrows(InvalidProtocolBufferException.class, () -> EnvelopeCodec.decode(garbage));
        assertEquals(0, garbage.refCnt());
    }

    @Test
    void statusNumbersMatchTheWire() {
        for (RpcStatus s : RpcStatus.values()) {
            assertEquals(s, RpcStatus.of(s.code()));
            assertEquals(s.name(), s.code().name());
        }
    }
}
