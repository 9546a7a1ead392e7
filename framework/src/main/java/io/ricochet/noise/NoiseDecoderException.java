package io.ricochet.noise;

import io.netty.handler.codec.DecoderException;

/**
 * A transport message that failed its check, or had an impossible length: the input ends there. A
 * {@link DecoderException}, so a session treats it as a malformed frame: it answers the frames before it, then
 * closes.
 */
public final class NoiseDecoderException extends DecoderException {
    NoiseDecoderException(String message, Throwable cause) {
        super(message, cause);
    }
}
