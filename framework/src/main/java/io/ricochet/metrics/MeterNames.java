package io.ricochet.metrics;

/**
 * Every meter Ricochet registers. Dots separate words; Micrometer's Prometheus registry turns
 * {@code ricochet.frames.sent} into {@code ricochet_frames_sent_total}. Variable parts are tags.
 */
public final class MeterNames {
    private MeterNames() {
    }

    /** Gauge, connections (TCP) or live sessions (UDP). Tag {@link #TAG_TRANSPORT}. */
    public static final String CONNECTIONS_ACTIVE = "ricochet.connections.active";
    /** Counter, connections accepted (TCP) or sessions started (UDP). Tag {@link #TAG_TRANSPORT}. */
    public static final String CONNECTIONS_OPENED = "ricochet.connections.opened";
    /** Counter, connections or sessions ended. Tags {@link #TAG_TRANSPORT}, {@link #TAG_REASON}. */
    public static final String CONNECTIONS_CLOSED = "ricochet.connections.closed";
    /** Counter, complete valid frames received. Tag {@link #TAG_TRANSPORT}. */
    public static final String FRAMES_RECEIVED = "ricochet.frames.received";
    /** Counter, frames written. Tag {@link #TAG_TRANSPORT}. */
    public static final String FRAMES_SENT = "ricochet.frames.sent";
    /** Counter, bytes: TCP counts every byte read from the socket, UDP every datagram byte. Tag {@link #TAG_TRANSPORT}. */
    public static final String BYTES_RECEIVED = "ricochet.bytes.received";
    /** Counter, bytes of frames written, length fields included. Tag {@link #TAG_TRANSPORT}. */
    public static final String BYTES_SENT = "ricochet.bytes.sent";
    /** Counter, failed accepts on a TCP listener. Tag {@link #TAG_TRANSPORT}. */
    public static final String ACCEPT_ERRORS = "ricochet.accept.errors";
    /**
     * Counter, valid datagrams dropped without a reply. Tags {@link #TAG_TRANSPORT}, {@link #TAG_REASON}
     * ({@code session_limit}: from a new peer while the session table is full).
     */
    public static final String DATAGRAMS_DROPPED = "ricochet.datagrams.dropped";
    /** Counter, malformed input. Tags {@link #TAG_TRANSPORT}, {@link #TAG_KIND}. */
    public static final String PROTOCOL_ERRORS = "ricochet.protocol.errors";
    /** Gauge, always 1; its {@link #TAG_IO} tag says which I/O transport the server runs. */
    public static final String SERVER_INFO = "ricochet.server.info";
    /** Gauge, bytes: resident set size from {@code /proc/self/status}. */
    public static final String PROCESS_MEMORY_RSS = "process.memory.rss";

    public static final String TAG_TRANSPORT = "transport";
    public static final String TAG_REASON = "reason";
    public static final String TAG_KIND = "kind";
    public static final String TAG_IO = "io";
}
