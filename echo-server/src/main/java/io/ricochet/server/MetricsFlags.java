package io.ricochet.server;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.metrics.MetricsEndpointConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The echo server's metrics-port flags, and the endpoint's limits they set. */
final class MetricsFlags {
    @Option(names = "--metrics-port", defaultValue = "9100", description = "Prometheus /metrics and /health HTTP port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--metrics-host", description = "Address the metrics port binds, e.g. a private interface "
            + "apart from the service ports (default: --host).")
    String host;

    @Option(names = "--metrics-max-connections", defaultValue = "" + MetricsEndpointConfig.DEFAULT_MAX_CONNECTIONS,
            converter = ValueConverters.CountConverter.class, description = "Connections the metrics port serves at once; a new one "
                    + "past it closes the one idle longest, so /health always gets in (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--metrics-max-connections-per-address",
            defaultValue = "" + MetricsEndpointConfig.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, converter = ValueConverters.CountConverter.class,
            description = "Connections one source address holds on the metrics port; a new one past it closes that "
                    + "address's own longest-idle one (default: ${DEFAULT-VALUE}).")
    int maxConnectionsPerAddress;

    /** The metrics port's limits. */
    MetricsEndpointConfig config(CommandLine cli) {
        try {
            return MetricsEndpointConfig.DEFAULTS.withMaxConnections(maxConnections)
                    .withMaxConnectionsPerAddress(maxConnectionsPerAddress);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(cli, e, FlagNames.METRICS);
        }
    }
}
