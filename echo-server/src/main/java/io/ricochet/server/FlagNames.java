package io.ricochet.server;

import static java.util.Map.entry;

import io.ricochet.commandline.UsageErrors;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The flag each validated field comes from, so that a usage error names what the user typed ({@code --max-frame 0})
 * rather than the field of {@code ServerConfig} that checked it ({@code maxFrame: 0}).
 */
final class FlagNames {
    /** The echo listeners' config, and the ports this command checks itself. */
    static final Map<String, String> ECHO = Map.ofEntries(
            entry("host", "--host"), entry("tcpPort", "--tcp-port"), entry("udpPort", "--udp-port"),
            entry("lengthField", "--length-field"), entry("maxFrame", "--max-frame"),
            entry("idleTimeout", "--idle-timeout"), entry("maxConnections", "--max-connections"),
            entry("maxConnectionsPerAddress", "--max-connections-per-address"),
            entry("maxUdpSessions", "--max-udp-sessions"), entry("ioThreads", "--io-threads"),
            entry("udpChannels", "--udp-channels"),
            entry("transport", "--transport"), entry("shutdownTimeout", "--shutdown-timeout"),
            entry("lingerTimeout", "--linger-timeout"), entry("metricsPort", "--metrics-port"),
            entry("tlsPort", "--tls-port"), entry("quicPort", "--quic-port"), entry("noisePort", "--noise-port"));

    /** The RPC listener's config: the echo one's, on its own port with its own idle timeout. */
    static final Map<String, String> RPC = overriding(ECHO, Map.of("tcpPort", "--rpc-port", "idleTimeout",
            "--rpc-idle-timeout"));

    /** The RPC layer's limits that have a flag. */
    static final Map<String, String> RPC_LIMITS = Map.of("authTimeout", "--rpc-auth-timeout");

    /** The metrics port's limits. */
    static final Map<String, String> METRICS = Map.of("maxConnections", "--metrics-max-connections",
            "maxConnectionsPerAddress", "--metrics-max-connections-per-address");

    /** The Noise port's handshake bounds. */
    static final Map<String, String> NOISE = Map.of("maxHandshakes", "--noise-max-handshakes",
            "maxHandshakesPerAddress", "--noise-max-handshakes-per-address", "handshakeThreads",
            "--noise-handshake-threads");

    /** The TLS ports' handshake bounds. */
    static final Map<String, String> TLS = Map.of("handshakesPerAddress", "--tls-handshakes-per-address",
            "handshakeThreads", "--tls-handshake-threads");

    private FlagNames() {
    }

    /** {@code invalid option value: --max-frame 0 (expected: 1..65535)}; a message about no one flag as it is. */
    static ParameterException usage(CommandLine cli, IllegalArgumentException e, Map<String, String> flags) {
        return UsageErrors.invalidValue(cli, e, flags::get);
    }

    private static Map<String, String> overriding(Map<String, String> base, Map<String, String> overrides) {
        Map<String, String> flags = new HashMap<>(base);
        flags.putAll(overrides);
        return Map.copyOf(flags);
    }
}
