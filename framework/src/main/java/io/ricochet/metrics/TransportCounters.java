package io.ricochet.metrics;

/**
 * Where a listener's (or a client group's) handlers count what happens: connections, traffic, errors.
 * {@link TransportMeters} counts into Micrometer; {@link #NONE} counts nothing, so the codec and the
 * session handlers run without a registry. Implementations are called from every event loop at once.
 */
public interface TransportCounters {

    /** Counts nothing. */
    TransportCounters NONE = new TransportCounters() {
    };

    /** A connection was accepted or made, or a UDP session started. */
    default void opened() {
    }

    default void closed(CloseReason reason) {
    }

    default void protocolErrors(ProtocolErrorKind kind, long count) {
    }

    /** Frames and bytes since the last call, in one batch (see {@link ConnectionStats#publish}). */
    default void traffic(long framesIn, long bytesIn, long framesOut, long bytesOut) {
    }

    default void acceptError() {
    }

    /** A valid datagram from a new peer, dropped because every session place was taken. */
    default void droppedAtSessionLimit() {
    }

    /** A datagram under 1,200 bytes that would open a QUIC connection, dropped unanswered (RFC 9000, 14.1). */
    default void droppedShortInitial() {
    }

    /** A QUIC Initial from a new address, dropped because as many addresses as may be are awaiting validation. */
    default void droppedAtUnvalidatedLimit() {
    }

    /**
     * A datagram not sent: it would have taken what the server sent an address it has not validated past three times
     * what it received from there (RFC 9000, 8.1).
     */
    default void droppedAtAmplificationLimit() {
    }
}
