package io.ricochet.server;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.commandline.UsageErrors;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.Checks;
import io.ricochet.config.ServerConfig;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.tls.Tls;
import io.ricochet.tls.TlsProvider;
import io.ricochet.transport.Protocol;
import java.nio.file.Path;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The echo server's TLS flags (the TLS port, the QUIC port, --rpc-tls), and the contexts they build. */
final class TlsFlags {
    @Option(names = "--tls-port", defaultValue = "-1",
            description = "TLS port for the echo protocol, beside the plaintext one; -1 = off (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--quic-port", defaultValue = "-1",
            description = "QUIC port (UDP) for the echo protocol: each bidirectional stream framed as a TCP connection, "
                    + "TLS 1.3 from --tls-cert and --tls-key, ALPN \"ricochet\"; -1 = off (default: ${DEFAULT-VALUE}).")
    int quicPort;

    @Option(names = "--quic-retry", description = "On the QUIC port, answer each new client with a Retry and make "
            + "the connection only when it shows the token back: a round trip more per connection, so that spoofed "
            + "source addresses cannot fill --max-connections.")
    boolean quicRetry;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "PEM certificate chain of the TLS port (and --rpc-tls).")
    Path cert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM PKCS#8 private key of --tls-cert.")
    Path key;

    @Option(names = "--tls-client-ca", paramLabel = "FILE",
            description = "PEM CA certificates: require a client certificate from one of them (mutual TLS).")
    Path clientCa;

    @Option(names = "--tls-provider", defaultValue = "auto", description = "auto, openssl or jdk (default: ${DEFAULT-VALUE}).")
    String provider;

    @Option(names = "--tls-handshakes-per-address", defaultValue = "" + Tls.DEFAULT_HANDSHAKES_PER_ADDRESS,
            converter = ValueConverters.CountConverter.class, description = "TLS handshakes at once from one source "
                    + "address (an IPv6 /64 counts as one) on the TLS port and --rpc-tls; the rest wait their turn, "
                    + "nothing read from them (default: ${DEFAULT-VALUE}).")
    int handshakesPerAddress;

    @Option(names = "--tls-handshake-threads", defaultValue = "0",
            description = "Threads that run TLS handshakes, apart from the event loops, so a flood of ClientHellos "
                    + "takes at most their CPU from established connections (on io_uring, handshakes stay on the event loops); "
                    + "0 = a quarter of the cores, at least one "
                    + "(default: ${DEFAULT-VALUE}).")
    int handshakeThreads;

    @Option(names = "--rpc-tls", description = "Serve the RPC port over TLS too, with --tls-cert and --tls-key.")
    boolean rpcTls;

    /** The TLS port's and --rpc-tls's context; null when neither is asked for. */
    Tls tls(CommandLine cli, ServerTlsConfig files) {
        return port == ServerConfig.DISABLED && !rpcTls ? null : context(cli, files::build);
    }

    /** The QUIC port's context, 0-RTT early data accepted (replayed, an echo request only gets its reply again). */
    QuicSslContext quic(CommandLine cli, ServerTlsConfig files) {
        return quicPort == ServerConfig.DISABLED ? null : context(cli, () -> files.buildQuic(Protocol.QUIC_ALPN, true));
    }

    /** The PEM files of the TLS port, the QUIC port and --rpc-tls; null when none is asked for. */
    ServerTlsConfig files(CommandLine cli) {
        if (quicRetry && quicPort == ServerConfig.DISABLED) {
            throw new ParameterException(cli, "--quic-retry needs --quic-port");
        }
        if (port == ServerConfig.DISABLED && !rpcTls) {
            // QUIC's handshakes are quiche's, inside the QUIC codec: these bound only TLS over TCP.
            for (String flag : FlagNames.TLS.values()) {
                if (cli.getParseResult().hasMatchedOption(flag)) {
                    throw new ParameterException(cli, flag + " needs --tls-port or --rpc-tls");
                }
            }
        }
        if (port == ServerConfig.DISABLED && quicPort == ServerConfig.DISABLED && !rpcTls) {
            if (cert != null || key != null || clientCa != null) {
                throw new ParameterException(cli,
                        "--tls-cert, --tls-key and --tls-client-ca need --tls-port, --quic-port or --rpc-tls");
            }
            return null;
        }
        try {
            Checks.inRange("tlsPort", port, ServerConfig.DISABLED, 65_535);
            Checks.inRange("quicPort", quicPort, ServerConfig.DISABLED, 65_535);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(cli, e, FlagNames.ECHO);
        }
        if (cert == null || key == null) {
            throw new ParameterException(cli, (rpcTls ? "--rpc-tls"
                    : port != ServerConfig.DISABLED ? "--tls-port" : "--quic-port")
                    + " needs --tls-cert and --tls-key (for local runs, make a pair with openssl; see docs/security.md)");
        }
        try {
            ServerTlsConfig.Builder builder = ServerTlsConfig.builder(cert, key).provider(TlsProvider.parse(provider))
                    .handshakesPerAddress(handshakesPerAddress).handshakeThreads(handshakeThreads);
            if (clientCa != null) {
                builder.clientCa(clientCa);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(cli, e, FlagNames.TLS);
        }
    }

    /** A context built from the PEM files; one that cannot be read or parsed is a usage error naming the file. */
    private static <T> T context(CommandLine cli, Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw UsageErrors.invalidValue(cli, e.getMessage());
        }
    }
}
