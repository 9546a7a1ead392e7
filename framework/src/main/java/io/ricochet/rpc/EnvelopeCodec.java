package io.ricochet.rpc;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.transport.FrameSession;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Envelopes to and from frame bodies, copying the payload once each way: decoding copies it out of the
 * read buffer into the envelope's {@code ByteString} (the buffer is released right after); encoding
 * writes it straight into a pooled buffer that has headroom for the length field, so framing copies nothing.
 * Internal: the benchmarks reach it from the same package.
 */
final class EnvelopeCodec {
    private EnvelopeCodec() {
    }

    /** Parses and releases {@code body}. */
    static Envelope decode(ByteBuf body) throws InvalidProtocolBufferException {
        try {
            return Envelope.parseFrom(body.nioBuffer());
        } finally {
            body.release();
        }
    }

    /** Serializes {@code envelope} into a buffer from {@code session}, ready for {@link FrameSession#send}. */
    static ByteBuf encode(Envelope envelope, FrameSession session) {
        int size = envelope.getSerializedSize();
        ByteBuf buf = session.allocateBody(size);
        return writeTo(envelope, size, buf);
    }

    /** Serializes {@code envelope} ({@code size} bytes) after {@code buf}'s writer index. */
    static ByteBuf writeTo(Envelope envelope, int size, ByteBuf buf) {
        try {
            buf.ensureWritable(size);
            CodedOutputStream out = CodedOutputStream.newInstance(buf.nioBuffer(buf.writerIndex(), size));
            envelope.writeTo(out);
            out.checkNoSpaceLeft();
            buf.writerIndex(buf.writerIndex() + size);
            return buf;
        } catch (IOException e) {
            buf.release();
            throw new UncheckedIOException("encode envelope: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }
}
