package io.ricochet.noise;

import java.io.IOException;

/** A Noise handshake that failed, or a message that failed its check: the connection is closed. */
public final class NoiseException extends IOException {
    public NoiseException(String message) {
        super(message);
    }

    public NoiseException(String message, Throwable cause) {
        super(message, cause);
    }
}
