package io.ricochet.metrics;

import static io.ricochet.config.Checks.positive;

import java.time.Duration;

/**
 * The limits of a {@link MetricsEndpoint}, validated at construction. A full endpoint never refuses a new connection:
 * it closes an idle one to make room, so a peer that opens connections and sends nothing cannot keep {@code /health}
 * (a liveness probe) from being answered.
 *
 * @param idleTimeout              a connection that neither completes a request nor finishes writing an answer for
 *                                 this long is closed
 * @param maxConnections           connections served at once, since each costs a file descriptor; a new connection
 *                                 past it closes the connection that has been idle longest
 * @param maxConnectionsPerAddress connections served at once from one source address; a new connection past it
 *                                 closes that address's own longest-idle connection, so one peer displaces only
 *                                 itself. Above {@code maxConnections} it is the same as {@code maxConnections}
 */
public record MetricsEndpointConfig(Duration idleTimeout, int maxConnections, int maxConnectionsPerAddress) {
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_MAX_CONNECTIONS = 128;
    /** A scraper and a prober hold one or two each; a proxy in front of every peer would still be served, displacing its own. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 8;
    public static final MetricsEndpointConfig DEFAULTS = new MetricsEndpointConfig(DEFAULT_IDLE_TIMEOUT,
            DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);

    public MetricsEndpointConfig {
        positive("idleTimeout", idleTimeout);
        positive("maxConnections", maxConnections);
        positive("maxConnectionsPerAddress", maxConnectionsPerAddress);
    }

    public MetricsEndpointConfig withIdleTimeout(Duration idleTimeout) {
        return new MetricsEndpointConfig(idleTimeout, maxConnections, maxConnectionsPerAddress);
    }

    public MetricsEndpointConfig withMaxConnections(int maxConnections) {
        return new MetricsEndpointConfig(idleTimeout, maxConnections, maxConnectionsPerAddress);
    }

    public MetricsEndpointConfig withMaxConnectionsPerAddress(int maxConnectionsPerAddress) {
        return new MetricsEndpointConfig(idleTimeout, maxConnections, maxConnectionsPerAddress);
    }
}
