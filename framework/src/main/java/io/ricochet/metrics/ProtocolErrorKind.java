package io.ricochet.metrics;

import java.util.Locale;

/** The {@code kind} tag of {@link MeterNames#PROTOCOL_ERRORS}. */
public enum ProtocolErrorKind {
    /** Length field 0. */
    EMPTY,
    /** Length field above the max frame. */
    TOO_LONG,
    /** A partial frame left when the stream ended (TCP). */
    TRUNCATED,
    /** Length field disagrees with the datagram size (UDP). */
    LENGTH_MISMATCH,
    /** Datagram shorter than the length field (UDP). */
    RUNT,
    /**
     * A TLS listener's handshake failed (not TLS, a certificate refused, timed out, a renegotiation refused) or a record
     * failed its check; or a QUIC listener's handshake failed (no ALPN of ours, a certificate refused).
     */
    TLS,
    /** A Noise handshake failed (not a client of the key, timed out) or a message failed its check. */
    NOISE;

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
