package io.ricochet.tls;

/**
 * How a QUIC client uses the session tickets a server gave it on earlier connections to the same host and port.
 */
public enum QuicResumption {
    /** Keeps no ticket: every connection makes a full handshake (certificate, signature, key exchange). */
    NEVER,
    /** Resumes a cached session: no certificate; the first request still waits for the handshake's round trip. */
    RESUME,
    /**
     * Resumes, and sends the first requests as 0-RTT early data with the handshake, before the server has answered
     * it. Early data can be replayed by anyone who captured it, so only for requests the server may see twice; a
     * server that refuses it costs the round trip that resumption alone would.
     */
    EARLY_DATA
}
