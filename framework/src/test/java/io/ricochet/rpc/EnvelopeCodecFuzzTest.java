package io.ricochet.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.rpc.proto.Envelope;

/**
 * Any frame body as an RPC envelope: it parses or fails with {@link InvalidProtocolBufferException}, never
 * anything else, and what parses survives a round trip through the encoder unchanged.
 */
class EnvelopeCodecFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void decodesOrRefusesAndRoundTrips(byte[] body) {
        Envelope envelope;
        try {
            envelope = EnvelopeCodec.decode(Unpooled.wrappedBuffer(body));
        } catch (InvalidProtocolBufferException refused) {
            return;
        }
        ByteBuf encoded = EnvelopeCodec.writeTo(envelope, envelope.getSerializedSize(), Unpooled.buffer());
        Envelope again;
        try {
            again = EnvelopeCodec.decode(encoded);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError("an envelope we encoded does not parse: " + envelope, e);
        }
        assertEquals(envelope, again);
    }
}
