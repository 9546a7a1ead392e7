package io.ricochet.config;

import static io.ricochet.config.Checks.inRange;
import static io.ricochet.config.Checks.notNull;
import static io.ricochet.config.Checks.positive;

import java.time.Duration;

/**
 * Everything a {@code RicochetServer} needs to bind and serve, validated once at construction.
 * Longer than 300 lines: a record of many settings, each with its documented parameter, its check and its builder
 * method.
 *
 * @param host                   address the TCP and UDP listeners bind
 * @param tcpPort                TCP port, 0 for an ephemeral one, {@link #DISABLED} for no TCP listener
 * @param udpPort                UDP port, 0 for an ephemeral one, {@link #DISABLED} (the default) for no UDP listener
 * @param lengthField            width of the frame length prefix
 * @param maxFrame               largest valid body length; larger lengths are protocol errors
 * @param idleTimeout            a connection or UDP session with no complete frame for this long is closed
 * @param maxConnections         TCP connections served at once; a connection past it is closed at once. Defaults
 *                               to {@link OpenFileLimit#connectionCap()}, below the process's open-file limit
 * @param maxUdpSessions         UDP peers tracked at once; datagrams from further peers are dropped
 * @param ioThreads              event-loop threads of a server that makes its own; 0 means one per available processor
 * @param transport              I/O implementation of a server that makes its own event loops
 * @param backlog                the TCP listener's accept queue ({@code SO_BACKLOG})
 * @param udpSocketBuffer        the UDP socket's receive and send buffers ({@code SO_RCVBUF}, {@code SO_SNDBUF}), bytes
 * @param writeBufferLowWatermark  reading a connection resumes once its queued replies drain below this many bytes
 * @param writeBufferHighWatermark reading a connection pauses while its queued replies exceed this many bytes
 * @param shutdownTimeout        how long a graceful shutdown may flush before connections are closed regardless
 * @param lingerTimeout          how long a closing connection, its replies flushed and its output shut down,
 *                               waits for the peer's end of stream before it is closed regardless
 * @param reusePort              bind the TCP, UDP and QUIC listeners with {@code SO_REUSEPORT}, so several processes
 *                               (or servers) bound to the same port share it, and the kernel spreads new connections and
 *                               UDP peers over them by a hash of the peer's address; without it a port that anything
 *                               else holds cannot be bound
 * @param quicPort               QUIC port (UDP), 0 for an ephemeral one, {@link #DISABLED} (the default) for no QUIC
 *                               listener; it needs the builder's {@code quic} TLS
 * @param udpChannels            UDP sockets bound to the UDP port, one event loop each, sharing it through
 *                               {@code SO_REUSEPORT} (without {@code reusePort} the first binds without it, so the port
 *                               must be free, and sets it only then for the others to join), so the kernel spreads
 *                               peers over the loops (a peer stays on one); 0 (the default) means
 *                               one per event loop on epoll and io_uring and one on NIO, the fallback; a count applies
 *                               on every transport, capped at the event loops there are
 * @param quicRetry              answer a QUIC Initial without a token with a Retry, so a connection is made (and
 *                               counted against the cap) only for a client that receives at its source address: a
 *                               round trip more per connection, against spoofed Initials filling the cap
 * @param maxConnectionsPerAddress TCP connections served at once from one source (an IPv4 address, or an IPv6 /64);
 *                               a connection past it is closed at once, so that one peer cannot take the whole
 *                               {@code maxConnections}. Defaults to {@link #NO_LIMIT}: a load generator on one host
 *                               holds thousands of connections from one address
 */
public record ServerConfig(
        String host,
        int tcpPort,
        int udpPort,
        LengthField lengthField,
        int maxFrame,
        Duration idleTimeout,
        int maxConnections,
        int maxUdpSessions,
        int ioThreads,
        TransportKind transport,
        int backlog,
        int udpSocketBuffer,
        int writeBufferLowWatermark,
        int writeBufferHighWatermark,
        Duration shutdownTimeout,
        Duration lingerTimeout,
        boolean reusePort,
        int quicPort,
        int udpChannels,
        boolean quicRetry,
        int maxConnectionsPerAddress) {

    /** A port value that turns that listener off. */
    public static final int DISABLED = -1;
    /** A cap value that caps nothing. */
    public static final int NO_LIMIT = Integer.MAX_VALUE;

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 7000;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_UDP_SESSIONS = 100_000;
    public static final int DEFAULT_LOW_WATERMARK = 32 * 1024;
    public static final int DEFAULT_HIGH_WATERMARK = 64 * 1024;
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_LINGER_TIMEOUT = Duration.ofSeconds(2);
    public static final int DEFAULT_BACKLOG = 4096;
    /** Large enough for a burst of datagrams while the event loop is busy. */
    public static final int DEFAULT_UDP_SOCKET_BUFFER = 4 * 1024 * 1024;

    public ServerConfig {
        notNull("host", host);
        notNull("lengthField", lengthField);
        notNull("transport", transport);
        inRange("tcpPort", tcpPort, DISABLED, 65_535);
        inRange("udpPort", udpPort, DISABLED, 65_535);
        inRange("quicPort", quicPort, DISABLED, 65_535);
        if (tcpPort == DISABLED && udpPort == DISABLED && quicPort == DISABLED) {
            throw new IllegalArgumentException("tcpPort, udpPort, quicPort: all disabled (expected: at least one listener)");
        }
        inRange("maxFrame", maxFrame, 1, lengthField.largestMaxFrame());
        positive("idleTimeout", idleTimeout);
        positive("maxConnections", maxConnections);
        positive("maxUdpSessions", maxUdpSessions);
        inRange("ioThreads", ioThreads, 0, 1024);
        positive("backlog", backlog);
        positive("udpSocketBuffer", udpSocketBuffer);
        positive("writeBufferLowWatermark", writeBufferLowWatermark);
        inRange("writeBufferHighWatermark", writeBufferHighWatermark, writeBufferLowWatermark, Integer.MAX_VALUE);
        positive("shutdownTimeout", shutdownTimeout);
        positive("lingerTimeout", lingerTimeout);
        inRange("udpChannels", udpChannels, 0, 1024);
        positive("maxConnectionsPerAddress", maxConnectionsPerAddress);
    }

    /** Largest UDP body: {@code min(maxFrame, 65507 - field width)}, 65,503 with the 4-byte field. */
    public int maxUdpBody() {
        return Math.min(maxFrame, lengthField.largestUdpBody());
    }

    /** Event-loop threads after resolving 0 to the processor count. */
    public int resolvedIoThreads() {
        return ioThreads == 0 ? Runtime.getRuntime().availableProcessors() : ioThreads;
    }

    public boolean tcpEnabled() {
        return tcpPort != DISABLED;
    }

    public boolean udpEnabled() {
        return udpPort != DISABLED;
    }

    public boolean quicEnabled() {
        return quicPort != DISABLED;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.host = host;
        b.tcpPort = tcpPort;
        b.udpPort = udpPort;
        b.lengthField = lengthField;
        b.maxFrame = maxFrame;
        b.idleTimeout = idleTimeout;
        b.maxConnections = maxConnections;
        b.maxUdpSessions = maxUdpSessions;
        b.ioThreads = ioThreads;
        b.transport = transport;
        b.backlog = backlog;
        b.udpSocketBuffer = udpSocketBuffer;
        b.writeBufferLowWatermark = writeBufferLowWatermark;
        b.writeBufferHighWatermark = writeBufferHighWatermark;
        b.shutdownTimeout = shutdownTimeout;
        b.lingerTimeout = lingerTimeout;
        b.reusePort = reusePort;
        b.quicPort = quicPort;
        b.udpChannels = udpChannels;
        b.quicRetry = quicRetry;
        b.maxConnectionsPerAddress = maxConnectionsPerAddress;
        return b;
    }

    /** Fluent builder; {@link #build()} validates. The max frame follows the length field unless set. */
    public static final class Builder {
        private String host = DEFAULT_HOST;
        private int tcpPort = DEFAULT_PORT;
        private int udpPort = DISABLED;
        private LengthField lengthField = LengthField.TWO;
        private Integer maxFrame;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private int maxConnections = OpenFileLimit.connectionCap();
        private int maxUdpSessions = DEFAULT_MAX_UDP_SESSIONS;
        private int ioThreads;
        private TransportKind transport = TransportKind.AUTO;
        private int backlog = DEFAULT_BACKLOG;
        private int udpSocketBuffer = DEFAULT_UDP_SOCKET_BUFFER;
        private int writeBufferLowWatermark = DEFAULT_LOW_WATERMARK;
        private int writeBufferHighWatermark = DEFAULT_HIGH_WATERMARK;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private Duration lingerTimeout = DEFAULT_LINGER_TIMEOUT;
        private boolean reusePort;
        private int quicPort = DISABLED;
        private int udpChannels;
        private boolean quicRetry;
        private int maxConnectionsPerAddress = NO_LIMIT;

        private Builder() {
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder tcpPort(int tcpPort) {
            this.tcpPort = tcpPort;
            return this;
        }

        public Builder udpPort(int udpPort) {
            this.udpPort = udpPort;
            return this;
        }

        /** The QUIC listener's UDP port: 0 for an ephemeral one, {@link #DISABLED} for none. */
        public Builder quicPort(int quicPort) {
            this.quicPort = quicPort;
            return this;
        }

        /** Ephemeral TCP and UDP ports, as tests and embedded servers want (QUIC stays as set). */
        public Builder ephemeralPorts() {
            this.tcpPort = 0;
            this.udpPort = 0;
            return this;
        }

        public Builder lengthField(LengthField lengthField) {
            this.lengthField = lengthField;
            return this;
        }

        public Builder maxFrame(int maxFrame) {
            this.maxFrame = maxFrame;
            return this;
        }

        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        public Builder maxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
            return this;
        }

        /** Connections from one source address (see {@code maxConnectionsPerAddress}); {@link #NO_LIMIT} by default. */
        public Builder maxConnectionsPerAddress(int maxConnectionsPerAddress) {
            this.maxConnectionsPerAddress = maxConnectionsPerAddress;
            return this;
        }

        public Builder maxUdpSessions(int maxUdpSessions) {
            this.maxUdpSessions = maxUdpSessions;
            return this;
        }

        public Builder ioThreads(int ioThreads) {
            this.ioThreads = ioThreads;
            return this;
        }

        public Builder transport(TransportKind transport) {
            this.transport = transport;
            return this;
        }

        public Builder backlog(int backlog) {
            this.backlog = backlog;
            return this;
        }

        public Builder udpSocketBuffer(int bytes) {
            this.udpSocketBuffer = bytes;
            return this;
        }

        public Builder writeBufferWatermarks(int low, int high) {
            this.writeBufferLowWatermark = low;
            this.writeBufferHighWatermark = high;
            return this;
        }

        public Builder shutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
            return this;
        }

        public Builder lingerTimeout(Duration lingerTimeout) {
            this.lingerTimeout = lingerTimeout;
            return this;
        }

        /** {@code SO_REUSEPORT}: this server shares its ports with others bound the same way (one process per core). */
        public Builder reusePort(boolean reusePort) {
            this.reusePort = reusePort;
            return this;
        }

        /** UDP sockets on the one port, one event loop each; 0 for one per event loop where the transport scales so. */
        public Builder udpChannels(int udpChannels) {
            this.udpChannels = udpChannels;
            return this;
        }

        /** QUIC Retry: a connection only for a client that shows it receives at its address (see {@code quicRetry}). */
        public Builder quicRetry(boolean quicRetry) {
            this.quicRetry = quicRetry;
            return this;
        }

        public ServerConfig build() {
            notNull("lengthField", lengthField);
            int frame = maxFrame != null ? maxFrame : lengthField.defaultMaxFrame();
            return new ServerConfig(host, tcpPort, udpPort, lengthField, frame, idleTimeout, maxConnections,
                    maxUdpSessions, ioThreads, transport, backlog, udpSocketBuffer, writeBufferLowWatermark,
                    writeBufferHighWatermark, shutdownTimeout, lingerTimeout, reusePort, quicPort, udpChannels,
                    quicRetry, maxConnectionsPerAddress);
        }
    }
}
