package io.ricochet.metrics;

import static io.ricochet.internal.Checks.positive;

import java.time.Duration;

/**
 * The limits of a {@link MetricsEndpoint}, validated at construction.
 *
 * @param idleTimeout    a connection that neither completes a request nor finishes writing an answer for this
 *                       long is closed
 * @param maxConnections connections served at once; a connection past it is closed at once, since each costs a
 *                       file descriptor
 */
public record MetricsEndpointConfig(Duration idleTimeout, int maxConnections) {
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_MAX_CONNECTIONS = 128;
    public static final MetricsEndpointConfig DEFAULTS =
            new MetricsEndpointConfig(DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS);

    public MetricsEndpointConfig {
        positive("idleTimeout", idleTimeout);
        positive("maxConnections", maxConnections);
    }

    public MetricsEndpointConfig withIdleTimeout(Duration idleTimeout) {
        return new MetricsEndpointConfig(idleTimeout, maxConnections);
    }

    public MetricsEndpointConfig withMaxConnections(int maxConnections) {
        return new MetricsEndpointConfig(idleTimeout, maxConnections);
    }
}
