package io.ricochet.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.WrappedByteBuf;

/**
 * A body from {@link FrameHeader#allocateBody}: its type is the proof that the bytes before its reader index are
 * headroom no one else uses. Everything delegates to the pooled buffer it wraps, indices and reference count
 * included; duplicates, slices and read-only views come from that buffer, so they are not of this type and are
 * never framed in place. Callers only ever see it as a {@link ByteBuf}.
 */
final class HeadroomBody extends WrappedByteBuf {

    HeadroomBody(ByteBuf buf) {
        super(buf);
    }
}
