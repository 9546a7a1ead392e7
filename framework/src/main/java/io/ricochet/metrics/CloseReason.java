package io.ricochet.metrics;

import java.util.Locale;

/** Why a connection or UDP session ended; the {@code reason} tag of {@link MeterNames#CONNECTIONS_CLOSED}. */
public enum CloseReason {
    /** The peer closed, reset, or half-closed and was answered. */
    PEER,
    /** No complete frame within the idle timeout. */
    IDLE,
    /** An invalid length or datagram. */
    PROTOCOL_ERROR,
    /** Over the connection cap (TCP), or a Noise handshake shed at its bounds (see {@link HandshakeShedReason}). */
    LIMIT,
    /** The server shut down. */
    SHUTDOWN,
    /** The frame handler failed; logged with its cause. */
    ERROR,
    /** The peer stopped reading what it was sent: an agent's forwarded call stayed unwritten past its write timeout. */
    STALLED;

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
