package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Netty's {@link ByteToMessageDecoder#MERGE_CUMULATOR}, except that a cumulation shared with frames a handler
 * still holds is never written to: the new bytes and the unread rest go to a new buffer, and the frames keep
 * the old one. Netty appends to a shared cumulation when the bytes fit. With Netty 4.2's default (adaptive)
 * allocator that corrupted frames held by another thread. A reply computed on an executor came back wrong in
 * about one run in three (SessionApiTest.repliesFromAnotherThreadKeepTheirOrder; 2 to 3 of 12 rounds of a
 * 10,000-frame stress run), and never with this cumulator, the pooled allocator, or copied frames. The cost is
 * one copy of a read while earlier frames of the connection are still held, as they are until their replies
 * are written.
 *
 * <p>A cumulation that must grow is never grown in place either: Netty's growth doubles the capacity from the write
 * position, keeping the bytes already read in front, so four pipelined 64 KiB frames made a 512 KiB buffer (sixteen,
 * 2 MiB) per connection, and a server in a 256 MiB container ran out of direct memory at 100 connections. A new
 * buffer holds only the unread rest and the new bytes: at most about twice a frame and a read.
 */
final class SharedSafeCumulator implements ByteToMessageDecoder.Cumulator {
    static final SharedSafeCumulator INSTANCE = new SharedSafeCumulator();

    private SharedSafeCumulator() {
    }

    @Override
    public ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        if (!cumulation.isReadable() && in.isContiguous()) {
            cumulation.release();
            return in;
        }
        try {
            int required = in.readableBytes();
            if (required > cumulation.writableBytes() || cumulation.refCnt() > 1 || cumulation.isReadOnly()) {
                return expand(alloc, cumulation, in);
            }
            cumulation.writeBytes(in, in.readerIndex(), required);
            in.readerIndex(in.writerIndex());
            return cumulation;
        } finally {
            in.release();
        }
    }

    /** A new cumulation with the old one's unread bytes and then {@code in}'s; the old one is released. */
    private static ByteBuf expand(ByteBufAllocator alloc, ByteBuf old, ByteBuf in) {
        int oldBytes = old.readableBytes();
        int newBytes = in.readableBytes();
        ByteBuf expanded = alloc.buffer(alloc.calculateNewCapacity(oldBytes + newBytes, Integer.MAX_VALUE));
        ByteBuf toRelease = expanded;
        try {
            expanded.writeBytes(old, old.readerIndex(), oldBytes).writeBytes(in, in.readerIndex(), newBytes);
            in.readerIndex(in.writerIndex());
            toRelease = old;
            return expanded;
        } finally {
            toRelease.release();
        }
    }
}
