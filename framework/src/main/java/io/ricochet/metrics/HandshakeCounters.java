package io.ricochet.metrics;

/**
 * Where a Noise listener counts its handshakes: {@link HandshakeMeters} into Micrometer, {@link #NONE} nowhere.
 * Called from the event loops, only for handshakes shed, so a shared counter is no cost.
 */
public interface HandshakeCounters {

    /** Counts nothing. */
    HandshakeCounters NONE = new HandshakeCounters() {
    };

    /** A connection's first handshake message was refused for {@code reason} and the connection closed. */
    default void shed(HandshakeShedReason reason) {
    }
}
