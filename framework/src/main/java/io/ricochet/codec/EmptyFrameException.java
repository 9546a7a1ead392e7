package io.ricochet.codec;

import io.netty.handler.codec.CorruptedFrameException;

/** A length field of 0: the protocol has no empty frames. */
public final class EmptyFrameException extends CorruptedFrameException {
    public EmptyFrameException(int maxFrame) {
        super("frame length: 0 (expected: 1.." + maxFrame + ")");
    }
}
