package io.ricochet.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import com.google.protobuf.Int64Value;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.StatusCode;
import io.ricochet.transport.session.FrameSession;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnvelopeCodecTest {
    /** A session that only allocates bodies, from the heap, each added to {@code allocated}. */
    private static FrameSession allocatingInto(List<ByteBuf> allocated) {
        return (FrameSession) Proxy.newProxyInstance(FrameSession.class.getClassLoader(),
                new Class<?>[] {FrameSession.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("allocateBody")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    ByteBuf buf = Unpooled.buffer((int) args[0]);
                    allocated.add(buf);
                    return buf;
                });
    }

    /** A typed answer, written from its message, is byte for byte the envelope with the message's bytes as payload. */
    @Test
    void aMessagePayloadEncodesAsItsBytesWould() {
        FrameSession session = allocatingInto(new ArrayList<>());
        // 300 takes a two-byte varint; 0 encodes to nothing, so the payload field is left out.
        for (Int64Value answer : List.of(Int64Value.of(300), Int64Value.of(0))) {
            Envelope.Builder header = Envelope.newBuilder().setId(9).setKind(Kind.RESPONSE);
            ByteBuf typed = EnvelopeCodec.encodeMessage(header.clone(), answer, session);
            ByteBuf bytes = EnvelopeCodec.encode(header.clone(), answer.toByteString(), session);
            try {
                assertEquals(ByteBufUtil.hexDump(bytes), ByteBufUtil.hexDump(typed), "answer " + answer.getValue());
            } finally {
                typed.release();
                bytes.release();
            }
        }
        ByteBuf none = EnvelopeCodec.encode(Envelope.newBuilder().setId(9), null, session);
        try {
            assertEquals(ByteBufUtil.hexDump(Envelope.newBuilder().setId(9).build().toByteArray()), ByteBufUtil.hexDump(none));
        } finally {
            none.release();
        }
    }

    /** A message is appended after the header's fields, which is field order only while payload is the last field. */
    @Test
    void payloadIsTheHighestNumberedField() {
        int highest = Envelope.getDescriptor().getFields().stream().mapToInt(f -> f.getNumber()).max().orElseThrow();
        assertEquals(Envelope.PAYLOAD_FIELD_NUMBER, highest);
    }

    /** A message that fails while it is written: the error reaches the caller and the buffer is released. */
    @Test
    void aMessageThatFailsToSerializeReleasesItsBuffer() {
        List<ByteBuf> allocated = new ArrayList<>();
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> EnvelopeCodec.encodeMessage(
                Envelope.newBuilder().setId(1), TestMessages.failingToSerialize(), allocatingInto(allocated)));
        assertEquals("cannot be written", thrown.getMessage());
        assertEquals(1, allocated.size());
        assertEquals(0, allocated.get(0).refCnt());
    }

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
