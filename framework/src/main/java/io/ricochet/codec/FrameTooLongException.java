package io.ricochet.codec;

import io.netty.handler.codec.TooLongFrameException;

/** A length field above the max frame; raised as soon as the field is read, before any body arrives. */
public final class FrameTooLongException extends TooLongFrameException {
    public FrameTooLongException(long length, int maxFrame) {
        super("frame length: " + length + " (expected: 1.." + maxFrame + ")");
    }
}
