package io.ricochet.metrics;

/**
 * Every meter Ricochet registers. Dots separate words; Micrometer's Prometheus registry turns
 * {@code ricochet.frames.sent} into {@code ricochet_frames_sent_total}. Variable parts are tags.
 */
public final class MeterNames {
    private MeterNames() {
    }

    /** Gauge, connections (TCP) or live sessions (UDP). Tags: the listener's ({@link #TAG_NAME}, {@link #TAG_PROTOCOL}, {@link #TAG_ROLE}, {@link #TAG_IO}). */
    public static final String CONNECTIONS_ACTIVE = "ricochet.connections.active";
    /** Counter, connections accepted (TCP) or sessions started (UDP). Tags: the listener's ({@link #TAG_NAME}, {@link #TAG_PROTOCOL}, {@link #TAG_ROLE}, {@link #TAG_IO}). */
    public static final String CONNECTIONS_OPENED = "ricochet.connections.opened";
    /** Counter, connections or sessions ended. Tags: the listener's, and {@link #TAG_REASON}. */
    public static final String CONNECTIONS_CLOSED = "ricochet.connections.closed";
    /** Counter, complete valid frames received. Tags: the listener's ({@link #TAG_NAME}, {@link #TAG_PROTOCOL}, {@link #TAG_ROLE}, {@link #TAG_IO}). */
    public static final String FRAMES_RECEIVED = "ricochet.frames.received";
    /** Counter, frames written. Tags: the listener's ({@link #TAG_NAME}, {@link #TAG_PROTOCOL}, {@link #TAG_ROLE}, {@link #TAG_IO}). */
    public static final String FRAMES_SENT = "ricochet.frames.sent";
    /** Counter, bytes: TCP counts every byte read from the socket, UDP every datagram byte. Tags: the listener's ({@link #TAG_NAME}, {@link #TAG_PROTOCOL}, {@link #TAG_ROLE}, {@link #TAG_IO}). */
    public static final String BYTES_RECEIVED = "ricochet.bytes.received";
    /** Counter, bytes of frames written, length fields included. Tags: the listener's ({@link #TAG_NAME}, {@link #TAG_PROTOCOL}, {@link #TAG_ROLE}, {@link #TAG_IO}). */
    public static final String BYTES_SENT = "ricochet.bytes.sent";
    /** Counter, failed accepts on a TCP listener. Tags: the listener's ({@link #TAG_NAME}, {@link #TAG_PROTOCOL}, {@link #TAG_ROLE}, {@link #TAG_IO}). */
    public static final String ACCEPT_ERRORS = "ricochet.accept.errors";
    /**
     * Counter, datagrams dropped: received and not answered, or (QUIC) not sent. Tags: the listener's, and
     * {@link #TAG_REASON}: {@code session_limit} (UDP: valid, from a new peer while the session table is full);
     * {@code short_initial} (QUIC: under 1,200 bytes and opening a connection); {@code unvalidated_limit} (QUIC: an
     * Initial from a new address while as many as may be await validation); {@code amplification_limit} (QUIC: not
     * sent, as it would take an address not yet validated past three times what it sent).
     */
    public static final String DATAGRAMS_DROPPED = "ricochet.datagrams.dropped";
    /** Counter, malformed input. Tags: the listener's, and {@link #TAG_KIND}. */
    public static final String PROTOCOL_ERRORS = "ricochet.protocol.errors";
    /**
     * Counter, connections of a {@link MetricsEndpoint} closed to make room for a new one. Tags: {@link #TAG_REASON}
     * ({@code max_connections}: the endpoint was full and this connection had been idle longest;
     * {@code max_connections_per_address}: the new connection's source address held its share, and this was that
     * address's longest-idle connection).
     */
    public static final String METRICS_CONNECTIONS_EVICTED = "ricochet.metrics.connections.evicted";
    /**
     * Counter, failed accepts on a {@link MetricsEndpoint}'s port (EMFILE once descriptors run out), each pausing its
     * accepting for a second. No tags.
     */
    public static final String METRICS_ACCEPT_ERRORS = "ricochet.metrics.accept.errors";
    /**
     * Gauge, Noise handshakes in progress on a Noise listener: the first message received, the answer not yet made
     * (queued for a handshake thread, or computing). Tags: the listener's.
     */
    public static final String NOISE_HANDSHAKES_IN_PROGRESS = "ricochet.noise.handshakes.in.progress";
    /**
     * Counter, Noise handshakes shed before any key agreement, their connections closed. Tags: the listener's, and
     * {@link #TAG_REASON} ({@code max_handshakes}: the listener's bound on handshakes in progress;
     * {@code max_handshakes_per_address}: the bound for one source address).
     */
    public static final String NOISE_HANDSHAKES_SHED = "ricochet.noise.handshakes.shed";
    /**
     * Gauge, TLS handshakes in progress on a TLS listener's handshake loops, each holding one of its source address's
     * turns. Tags: the listener's.
     */
    public static final String TLS_HANDSHAKES_IN_PROGRESS = "ricochet.tls.handshakes.in.progress";
    /**
     * Gauge, TLS connections accepted and waiting for a turn of their source address's to handshake, reading
     * nothing. Tags: the listener's.
     */
    public static final String TLS_HANDSHAKES_WAITING = "ricochet.tls.handshakes.waiting";
    /** Gauge, bytes: resident set size from {@code /proc/self/status}. */
    public static final String PROCESS_MEMORY_RSS = "process.memory.rss";

    /** The listener's or client group's name: several on one registry count apart. */
    public static final String TAG_NAME = "name";
    /** {@code tcp}, {@code udp} or {@code rpc}: what the frames carry. */
    public static final String TAG_PROTOCOL = "protocol";
    /** {@code server} or {@code client}. */
    public static final String TAG_ROLE = "role";
    public static final String TAG_REASON = "reason";
    public static final String TAG_KIND = "kind";
    public static final String TAG_IO = "io";
}
