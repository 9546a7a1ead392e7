package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.transport.session.FrameSession;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Envelopes to and from frame bodies, copying the payload once each way: decoding copies it out of the
 * read buffer into the envelope's {@code ByteString} (the buffer is released right after); encoding
 * writes it straight into a pooled buffer that has headroom for the length field, so framing copies nothing. The
 * answer of a typed method served on the event loop is written there from its message, with no {@code ByteString}
 * between.
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

    /** A response: {@code header} with {@code payload}, or with none if it is null, in a buffer from {@code session}. */
    static ByteBuf encode(Envelope.Builder header, ByteString payload, FrameSession session) {
        return encode(payload == null ? header.build() : header.setPayload(payload).build(), session);
    }

    /**
     * A response: {@code header} with {@code message} as its payload, in a buffer from {@code session}. The message is
     * written after the header: payload is the envelope's last field, and an embedded message and bytes share a wire
     * type, so the bytes are those of setting the field to its encoding.
     */
    static ByteBuf encodeMessage(Envelope.Builder header, MessageLite message, FrameSession session) {
        Envelope envelope = header.build();
        // An empty payload is left out, as proto3 leaves out empty bytes.
        MessageLite body = message.getSerializedSize() == 0 ? null : message;
        int size = envelope.getSerializedSize()
                + (body == null ? 0 : CodedOutputStream.computeMessageSize(Envelope.PAYLOAD_FIELD_NUMBER, body));
        return writeTo(envelope, body, size, session.allocateBody(size));
    }

    /** Serializes {@code envelope} ({@code size} bytes) after {@code buf}'s writer index. */
    static ByteBuf writeTo(Envelope envelope, int size, ByteBuf buf) {
        return writeTo(envelope, null, size, buf);
    }

    /** Serializes {@code envelope}, then {@code payload} as its payload field unless null: {@code size} bytes in all. */
    private static ByteBuf writeTo(Envelope envelope, MessageLite payload, int size, ByteBuf buf) {
        try {
            buf.ensureWritable(size);
            CodedOutputStream out = CodedOutputStream.newInstance(buf.nioBuffer(buf.writerIndex(), size));
            envelope.writeTo(out);
            if (payload != null) {
                out.writeMessage(Envelope.PAYLOAD_FIELD_NUMBER, payload);
            }
            out.checkNoSpaceLeft();
            buf.writerIndex(buf.writerIndex() + size);
            return buf;
        } catch (IOException e) {
            buf.release();
            throw new UncheckedIOException("encode envelope: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            // An Error too: a user's message, deeply nested, may overflow the stack while it is written.
            buf.release();
            throw e;
        }
    }
}
