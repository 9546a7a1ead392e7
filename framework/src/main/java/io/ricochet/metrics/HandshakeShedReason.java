package io.ricochet.metrics;

import java.util.Locale;

/**
 * Why a Noise handshake was shed before any key agreement, named after the bound it met; the {@code reason} tag of
 * {@link MeterNames#NOISE_HANDSHAKES_SHED}.
 */
public enum HandshakeShedReason {
    /** The listener's handshakes in progress were at {@code maxHandshakes}. */
    MAX_HANDSHAKES,
    /** The source address's handshakes in progress were at {@code maxHandshakesPerAddress}. */
    MAX_HANDSHAKES_PER_ADDRESS;

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
