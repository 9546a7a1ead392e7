package io.ricochet.transport.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;

/**
 * Replies built from buffers the framework did not hand out, each with its reader index exactly at the length
 * field's width and the bytes before it holding the caller's own data. The framework must frame them without
 * writing into them. Each keeps a buffer of the caller's ({@link Reply#kept}) that is checked after the write.
 */
enum ForeignReply {
    /** A heap buffer wrapping the caller's array, reader index set past the caller's prefix. */
    WRAPPED_ARRAY {
        @Override
        Reply make(ByteBufAllocator alloc, int width, ByteBuf received) {
            byte[] original = userBytes(width, received);
            ByteBuf reply = Unpooled.wrappedBuffer(original).readerIndex(width);
            // The caller's array, which outlives the buffer, is what must stay unchanged.
            return new Reply(reply, Unpooled.wrappedBuffer(original), original.clone());
        }
    },
    /** The caller's pooled buffer, its own prefix read with readerIndex advanced to exactly the width. */
    PARTLY_READ {
        @Override
        Reply make(ByteBufAllocator alloc, int width, ByteBuf received) {
            byte[] original = userBytes(width, received);
            ByteBuf buf = alloc.directBuffer(original.length).writeBytes(original);
            buf.skipBytes(width);
            return new Reply(buf.retain(), buf, original);
        }
    },
    /** A duplicate of a buffer the caller keeps. */
    DUPLICATE {
        @Override
        Reply make(ByteBufAllocator alloc, int width, ByteBuf received) {
            byte[] original = userBytes(width, received);
            ByteBuf kept = alloc.heapBuffer(original.length).writeBytes(original).readerIndex(width);
            return new Reply(kept.retain().duplicate(), kept, original);
        }
    },
    /** A retained duplicate of a buffer the caller keeps and goes on using: the buffer is shared. */
    SHARED {
        @Override
        Reply make(ByteBufAllocator alloc, int width, ByteBuf received) {
            byte[] original = userBytes(width, received);
            ByteBuf kept = alloc.directBuffer(original.length).writeBytes(original).readerIndex(width);
            return new Reply(kept.retainedDuplicate(), kept, original);
        }
    },
    /** A read-only view ({@code asReadOnly}) of the caller's buffer. */
    READ_ONLY {
        @Override
        Reply make(ByteBufAllocator alloc, int width, ByteBuf received) {
            byte[] original = userBytes(width, received);
            ByteBuf kept = alloc.directBuffer(original.length).writeBytes(original).readerIndex(width);
            return new Reply(kept.retain().asReadOnly(), kept, original);
        }
    },
    /** {@code Unpooled.unmodifiableBuffer} over the caller's buffer. */
    UNMODIFIABLE {
        @Override
        @SuppressWarnings("deprecation")
        Reply make(ByteBufAllocator alloc, int width, ByteBuf received) {
            byte[] original = userBytes(width, received);
            ByteBuf kept = alloc.heapBuffer(original.length).writeBytes(original).readerIndex(width);
            return new Reply(Unpooled.unmodifiableBuffer(kept.retain()), kept, original);
        }
    },
    /** A composite of two slices of the caller's buffer: prefix and body. */
    COMPOSITE {
        @Override
        Reply make(ByteBufAllocator alloc, int width, ByteBuf received) {
            byte[] original = userBytes(width, received);
            ByteBuf kept = alloc.directBuffer(original.length).writeBytes(original);
            CompositeByteBuf composite = alloc.compositeBuffer(2).addComponents(true,
                    kept.retainedSlice(0, width), kept.retainedSlice(width, original.length - width));
            composite.readerIndex(width);
            return new Reply(composite, kept, original);
        }
    },
    /** A retained duplicate of the received body itself, which the handler keeps. */
    RECEIVED_DUPLICATE {
        @Override
        Reply make(ByteBufAllocator alloc, int width, ByteBuf received) {
            byte[] original = ByteBufUtil.getBytes(received, 0, received.writerIndex());
            return new Reply(received.retainedDuplicate(), received, original);
        }
    };

    /** The prefix the caller's buffers carry before the body: bytes that are not a length field. */
    static final byte PREFIX = 0x7E;

    /**
     * Builds the reply for {@code received} (a body as the handler got it), whose readable bytes are the body to
     * send back. Takes ownership of {@code received}.
     */
    final Reply reply(ByteBufAllocator alloc, int width, ByteBuf received) {
        Reply reply = make(alloc, width, received);
        if (reply.kept != received) {
            received.release();
        }
        return reply;
    }

    abstract Reply make(ByteBufAllocator alloc, int width, ByteBuf received);

    private static byte[] userBytes(int width, ByteBuf received) {
        byte[] bytes = new byte[width + received.readableBytes()];
        Arrays.fill(bytes, 0, width, PREFIX);
        received.getBytes(received.readerIndex(), bytes, width, received.readableBytes());
        return bytes;
    }

    /**
     * @param reply    what is passed to {@link FrameSession#send}
     * @param kept     the caller's buffer, holding one reference of the caller's
     * @param expected {@code kept}'s bytes from index 0 to its writer index, as they were before the reply
     */
    record Reply(ByteBuf reply, ByteBuf kept, byte[] expected) {

        /** Null when {@code kept} is unchanged, else what it holds now. Releases {@code kept}. */
        String checkAndRelease() {
            try {
                byte[] now = ByteBufUtil.getBytes(kept, 0, expected.length);
                return Arrays.equals(expected, now) ? null
                        : "caller's buffer changed: " + Arrays.toString(expected) + " -> " + Arrays.toString(now);
            } finally {
                kept.release();
            }
        }
    }
}
