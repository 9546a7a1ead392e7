package io.ricochet.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.UsageErrors;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;
import io.ricochet.config.OpenFileLimit;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.metrics.JvmProcessMetrics;
import io.ricochet.metrics.MetricsEndpoint;
import io.ricochet.metrics.MetricsEndpointConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.rpc.RpcAuthenticator;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcService;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.tls.Tls;
import io.ricochet.tls.TlsProvider;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.server.ServerBuilder;
import io.ricochet.transport.server.ServerStartException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code echo-server} command. Longer than 300 lines: a picocli command, about 170 lines of which are its option
 * declarations, the rest turning them into one server's configs and listeners.
 */
@Command(name = "echo-server", mixinStandardHelpOptions = true, version = "ricochet echo-server 0.1.0",
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Answers every frame with the same frame, body reversed, over TCP and UDP, and serves "
                + "the RPC benchmark methods (bench.update, echo.reverse) and the agent on the RPC port. "
                + "Port 0 binds an ephemeral port; -1 turns a listener off.")
final class EchoServerCommand implements Callable<Integer> {
    private final SignalShutdown shutdown;

    @Spec
    CommandSpec spec;

    @Option(names = "--host", defaultValue = ServerConfig.DEFAULT_HOST, description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--tcp-port", defaultValue = "7000", description = "TCP port (default: ${DEFAULT-VALUE}).")
    int tcpPort;

    @Option(names = "--udp-port", defaultValue = "7000", description = "UDP port (default: ${DEFAULT-VALUE}).")
    int udpPort;

    @Option(names = "--rpc-port", defaultValue = "7100",
            description = "RPC port: protobuf envelopes, 4-byte length field (default: ${DEFAULT-VALUE}).")
    int rpcPort;

    @Option(names = "--rpc-idle-timeout", defaultValue = "10m", converter = ValueConverters.DurationConverter.class,
            description = "Close an RPC connection with no frame for this long. Current clients ping when idle "
                    + "(keepalive, 10 s); the long default also keeps route owners from before keepalive "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration rpcIdleTimeout;

    @Option(names = "--metrics-port", defaultValue = "9100", description = "Prometheus /metrics and /health HTTP port (default: ${DEFAULT-VALUE}).")
    int metricsPort;

    @Option(names = "--metrics-host", description = "Address the metrics port binds, e.g. a private interface "
            + "apart from the service ports (default: --host).")
    String metricsHost;

    @Option(names = "--metrics-max-connections", defaultValue = "" + MetricsEndpointConfig.DEFAULT_MAX_CONNECTIONS,
            converter = ValueConverters.CountConverter.class, description = "Connections the metrics port serves at once; a new one "
                    + "past it closes the one idle longest, so /health always gets in (default: ${DEFAULT-VALUE}).")
    int metricsMaxConnections;

    @Option(names = "--metrics-max-connections-per-address",
            defaultValue = "" + MetricsEndpointConfig.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, converter = ValueConverters.CountConverter.class,
            description = "Connections one source address holds on the metrics port; a new one past it closes that "
                    + "address's own longest-idle one (default: ${DEFAULT-VALUE}).")
    int metricsMaxConnectionsPerAddress;

    @Option(names = "--idle-timeout", defaultValue = "30s", converter = ValueConverters.DurationConverter.class,
            description = "Close a connection with no complete frame for this long, e.g. 30s, 500ms (default: ${DEFAULT-VALUE}).")
    Duration idleTimeout;

    @Option(names = "--length-field", defaultValue = "2", description = "Length field width, 2 or 4 bytes (default: ${DEFAULT-VALUE}).")
    int lengthField;

    @Option(names = "--max-frame", converter = ValueConverters.ByteSizeConverter.class,
            description = "Largest body in bytes, e.g. 4094, 64k, 16MB (k, M, G count 1024s); default 4094 with a "
                    + "2-byte field, 16777216 (16 MiB) with 4.")
    Integer maxFrame;

    @Option(names = "--max-connections", converter = ValueConverters.CountConverter.class,
            description = "Connections served at once on each port (TCP, TLS, Noise, RPC; QUIC connections and "
                    + "streams), e.g. 100k (default: the open-file limit less a reserve; the TCP ports together stay "
                    + "within it).")
    Integer maxConnections;

    @Option(names = "--max-connections-per-address", converter = ValueConverters.CountConverter.class,
            description = "Connections served at once from one source address (an IPv4 address or an IPv6 /64) on "
                    + "each TCP port (TCP, TLS, Noise, RPC), e.g. 64 (default: no cap: a load generator on one host "
                    + "holds thousands).")
    Integer maxConnectionsPerAddress;

    @Option(names = "--max-udp-sessions", defaultValue = "" + ServerConfig.DEFAULT_MAX_UDP_SESSIONS,
            converter = ValueConverters.CountConverter.class,
            description = "UDP peers tracked at once, e.g. 100k (default: ${DEFAULT-VALUE}).")
    int maxUdpSessions;

    @Option(names = "--udp-channels", defaultValue = "0", description = "UDP sockets on the UDP port, one event "
            + "loop each, sharing it with SO_REUSEPORT once the first has bound it alone; the kernel keeps each peer on one. 0 = one per I/O thread on epoll and io_uring, one "
            + "on nio (default: ${DEFAULT-VALUE}).")
    int udpChannels;

    @Option(names = "--io-threads", defaultValue = "0", description = "Event-loop threads; 0 = one per core (default: ${DEFAULT-VALUE}).")
    int ioThreads;

    @Option(names = "--transport", defaultValue = "auto", converter = ValueConverters.TransportKindConverter.class,
            description = "auto, io_uring, epoll or nio (default: ${DEFAULT-VALUE}: epoll, else io_uring, else nio).")
    TransportKind transport;

    @Option(names = "--reuse-port", description = "Bind the echo ports (TCP, UDP, TLS, Noise, QUIC) with SO_REUSEPORT, "
            + "so several echo-server processes serve one port and the kernel spreads peers over them: one process per "
            + "core. Give each its own --metrics-port (0: ephemeral); the RPC port is not shared (its agent is per "
            + "process). Without it a port another process holds cannot be bound.")
    boolean reusePort;

    @Option(names = "--shutdown-timeout", defaultValue = "10s", converter = ValueConverters.DurationConverter.class,
            description = "How long a graceful stop may flush (default: ${DEFAULT-VALUE}).")
    Duration shutdownTimeout;

    @Option(names = "--linger-timeout", defaultValue = "2s", converter = ValueConverters.DurationConverter.class,
            description = "How long a closing connection, its replies flushed and its output shut, waits for the "
                    + "client's end of stream before closing (default: ${DEFAULT-VALUE}).")
    Duration lingerTimeout;

    @Option(names = "--tls-port", defaultValue = "-1",
            description = "TLS port for the echo protocol, beside the plaintext one; -1 = off (default: ${DEFAULT-VALUE}).")
    int tlsPort;

    @Option(names = "--quic-port", defaultValue = "-1",
            description = "QUIC port (UDP) for the echo protocol: each bidirectional stream framed as a TCP connection, "
                    + "TLS 1.3 from --tls-cert and --tls-key, ALPN \"ricochet\"; -1 = off (default: ${DEFAULT-VALUE}).")
    int quicPort;

    @Option(names = "--quic-retry", description = "On the QUIC port, answer each new client with a Retry and make "
            + "the connection only when it shows the token back: a round trip more per connection, so that spoofed "
            + "source addresses cannot fill --max-connections.")
    boolean quicRetry;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "PEM certificate chain of the TLS port (and --rpc-tls).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM PKCS#8 private key of --tls-cert.")
    Path tlsKey;

    @Option(names = "--tls-client-ca", paramLabel = "FILE",
            description = "PEM CA certificates: require a client certificate from one of them (mutual TLS).")
    Path tlsClientCa;

    @Option(names = "--tls-provider", defaultValue = "auto", description = "auto, openssl or jdk (default: ${DEFAULT-VALUE}).")
    String tlsProvider;

    @Option(names = "--tls-handshakes-per-address", defaultValue = "" + Tls.DEFAULT_HANDSHAKES_PER_ADDRESS,
            converter = ValueConverters.CountConverter.class, description = "TLS handshakes at once from one source "
                    + "address (an IPv6 /64 counts as one) on the TLS port and --rpc-tls; the rest wait their turn, "
                    + "nothing read from them (default: ${DEFAULT-VALUE}).")
    int tlsHandshakesPerAddress;

    @Option(names = "--tls-handshake-threads", defaultValue = "0",
            description = "Threads that run TLS handshakes, apart from the event loops, so a flood of ClientHellos "
                    + "takes at most their CPU from established connections (on io_uring, handshakes stay on the event loops); "
                    + "0 = a quarter of the cores, at least one "
                    + "(default: ${DEFAULT-VALUE}).")
    int tlsHandshakeThreads;

    @Option(names = "--rpc-tls", description = "Serve the RPC port over TLS too, with --tls-cert and --tls-key.")
    boolean rpcTls;

    @Option(names = "--noise-port", defaultValue = "-1",
            description = "Noise channel port for the echo protocol (Noise_NK_25519_AESGCM_SHA256, docs/protocol.md); "
                    + "-1 = off (default: ${DEFAULT-VALUE}).")
    int noisePort;

    @Option(names = "--noise-key", paramLabel = "FILE",
            description = "The Noise port's static private key (base64, one line). Without it a key is made for "
                    + "this run only; its public half is printed either way.")
    Path noiseKey;

    @Option(names = "--noise-generate-key",
            description = "Make a new key into --noise-key FILE (owner-only) if it does not exist yet.")
    boolean noiseGenerateKey;

    @Option(names = "--rpc-noise", description = "Serve the RPC port over the Noise channel too, with the Noise key.")
    boolean rpcNoise;

    @Option(names = "--noise-max-handshakes", defaultValue = "" + ServerNoiseConfig.DEFAULT_MAX_HANDSHAKES,
            converter = ValueConverters.CountConverter.class, description = "Noise handshakes in progress at once on the Noise port (and "
                    + "on the RPC port with --rpc-noise), from the first message to the answer; one past it is closed "
                    + "before any key agreement (default: ${DEFAULT-VALUE}).")
    int noiseMaxHandshakes;

    @Option(names = "--noise-max-handshakes-per-address", converter = ValueConverters.CountConverter.class,
            description = "Noise handshakes in progress at once from one source address (an IPv6 /64 counts as one); "
                    + "one past it is closed before any key agreement (default: an eighth of --noise-max-handshakes).")
    Integer noiseMaxHandshakesPerAddress;

    @Option(names = "--noise-handshake-threads", defaultValue = "0",
            description = "Threads that compute Noise handshakes, apart from the event loops, so a flood of handshakes "
                    + "takes no more CPU than they have; 0 = a quarter of the cores, at least one (default: ${DEFAULT-VALUE}).")
    int noiseHandshakeThreads;

    @Option(names = "--rpc-token-file", paramLabel = "FILE",
            description = "Admit only RPC clients that authenticate with the token in FILE (its first line); "
                    + "use with --rpc-tls, or the token crosses the network in the clear.")
    Path rpcTokenFile;

    @Option(names = "--rpc-auth-timeout", defaultValue = "10s", converter = ValueConverters.DurationConverter.class,
            description = "With --rpc-token-file: close an RPC connection that has not authenticated this long after "
                    + "its accept (a Noise handshake included; with --rpc-tls, after its TLS handshake, which has a "
                    + "10 s bound of its own); pings do not extend it (default: ${DEFAULT-VALUE}).")
    Duration rpcAuthTimeout;

    EchoServerCommand(SignalShutdown shutdown) {
        this.shutdown = shutdown;
    }

    @Override
    public Integer call() throws Exception {
        ServerConfig config = config();
        MetricsEndpointConfig metricsConfig = metricsConfig();
        ServerTlsConfig tlsFiles = tlsFiles();
        Tls tls = tlsPort == ServerConfig.DISABLED && !rpcTls ? null : context(tlsFiles::build);
        // 0-RTT early data is accepted: replayed, an echo request only gets its reply again.
        QuicSslContext quicTls = quicPort == ServerConfig.DISABLED ? null
                : context(() -> tlsFiles.buildQuic(Protocol.QUIC_ALPN, true));
        String rpcToken = rpcToken();
        RpcConfig rpcLimits = rpcLimits();
        ServerNoiseConfig noise = noise();
        List<Listener> listeners = listeners(config, tls, quicTls, noise, rpcListener(rpcLimits, rpcToken, tls, noise));
        // Before anything slow, so a SIGTERM during startup still ends in a graceful stop.
        shutdown.install();
        PrintWriter out = spec.commandLine().getOut();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EventLoops loops;
        try {
            // One group, sized to the cores (or --io-threads), for every listener.
            loops = EventLoops.create(transport, ioThreads, "echo-io");
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("echo-server: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        // The ports share the process's descriptors: together they stay below the open-file limit, with room kept for
        // what is open now (the loops made above among it) and for the metrics port, so /health is answered when
        // every connection allowed is open.
        OpenFileLimit.Budget descriptors = OpenFileLimit.budget(metricsPort == ServerConfig.DISABLED ? 0
                : metricsConfig.maxConnections());
        ConnectionBudget budget = new ConnectionBudget(descriptors.connections());
        // On stderr, as the log: stdout holds the listening lines, in their documented order, for scripts.
        spec.commandLine().getErr().println(descriptors.describe());
        spec.commandLine().getErr().flush();
        if (maxConnections != null && maxConnections > budget.limit()) {
            spec.commandLine().getErr().println("echo-server: --max-connections " + maxConnections + " is more than the "
                    + "open-file limit (" + OpenFileLimit.current() + ") leaves for connections; connections past "
                    + budget.limit() + " are refused");
        }
        try (JvmProcessMetrics jvmMetrics = new JvmProcessMetrics()) {
            jvmMetrics.bindTo(registry);
            ServerBuilder builder = RicochetServer.builder().config(config).handler(new ReverseEchoHandler())
                    .eventLoops(loops, true).meterRegistry(registry).name("echo").connectionBudget(budget);
            listeners.forEach(builder::listen);
            RicochetServer server = builder.build();
            MetricsEndpoint metrics = null;
            try {
                server.startAndAwait();
                if (metricsPort != ServerConfig.DISABLED) {
                    metrics = MetricsEndpoint.start(metricsHost != null ? metricsHost : host, metricsPort, registry,
                            metricsConfig);
                }
                printListening(out, server, noise, metrics);
                shutdown.await();
            } catch (ServerStartException | IllegalStateException e) {
                spec.commandLine().getErr().println("echo-server: " + e.getMessage());
                return ExitCodes.FAILURE;
            } finally {
                // Every listener drains at once, then the loops stop.
                server.stop().join();
                if (metrics != null) {
                    metrics.close();
                }
            }
        }
        return ExitCodes.OK;
    }

    /**
     * The echo listeners, each port's meters tagged as docs/protocol.md says (TCP and UDP under the server's name
     * {@code echo}, the others under their own), then the RPC one.
     */
    private List<Listener> listeners(ServerConfig config, Tls tls, QuicSslContext quicTls, ServerNoiseConfig noise,
            Listener rpc) {
        List<Listener> listeners = new ArrayList<>();
        if (config.tcpEnabled()) {
            listeners.add(Listener.tcp(config.tcpPort()));
        }
        if (config.udpEnabled()) {
            listeners.add(Listener.udp(config.udpPort()));
        }
        if (tlsPort != ServerConfig.DISABLED) {
            listeners.add(Listener.tcp(tlsPort).tls(tls).name("tls"));
        }
        if (noisePort != ServerConfig.DISABLED) {
            listeners.add(Listener.tcp(noisePort).noise(noise).name("noise"));
        }
        if (quicTls != null) {
            listeners.add(Listener.quic(quicPort, quicTls).name("quic"));
        }
        if (rpc != null) {
            listeners.add(rpc);
        }
        return listeners;
    }

    /** Lines in a documented order (README): tcp, udp, tls, noise, quic, the Noise key, rpc, metrics. */
    private static void printListening(PrintWriter out, RicochetServer server, ServerNoiseConfig noise,
            MetricsEndpoint metrics) {
        for (String protocol : List.of("tcp", "udp", "tls", "noise", "quic")) {
            for (Listener listener : server.listeners()) {
                if (listener.protocol().equals(protocol)) {
                    out.println("listening " + protocol + " " + hostPort(server.address(listener)));
                }
            }
        }
        if (noise != null) {
            out.println("noise public-key " + noise.keyPair().publicKeyBase64());
        }
        for (Listener listener : server.listeners()) {
            if (listener.protocol().equals(RpcService.METER_TAG)) {
                out.println("listening rpc " + hostPort(server.address(listener)));
            }
        }
        if (metrics != null) {
            out.println("listening metrics http://" + hostPort(metrics.address()) + "/metrics");
        }
        out.flush();
    }

    private ServerConfig config() {
        if (tcpPort == ServerConfig.DISABLED && udpPort == ServerConfig.DISABLED) {
            throw UsageErrors.invalidValue(spec.commandLine(),
                    "--tcp-port and --udp-port both -1 (expected: at least one echo listener)");
        }
        try {
            ServerConfig.Builder builder = ServerConfig.builder()
                    .host(host)
                    .tcpPort(tcpPort)
                    .udpPort(udpPort)
                    .lengthField(LengthField.ofWidth(lengthField))
                    .idleTimeout(idleTimeout)
                    .maxUdpSessions(maxUdpSessions)
                    .ioThreads(ioThreads)
                    .udpChannels(udpChannels)
                    .transport(transport)
                    .shutdownTimeout(shutdownTimeout)
                    .lingerTimeout(lingerTimeout)
                    .reusePort(reusePort)
                    .quicRetry(quicRetry);
            if (maxFrame != null) {
                builder.maxFrame(maxFrame);
            }
            if (maxConnections != null) {
                builder.maxConnections(maxConnections);
            }
            if (maxConnectionsPerAddress != null) {
                builder.maxConnectionsPerAddress(maxConnectionsPerAddress);
            }
            Checks.inRange("metricsPort", metricsPort, ServerConfig.DISABLED, 65_535);
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.ECHO);
        }
    }

    /**
     * The RPC listener: the benchmark methods and the agent, on its own port with its own idle timeout, never shared
     * (a registration made on one process's agent must be found by the calls that follow it); null if off.
     */
    private Listener rpcListener(RpcConfig limits, String token, Tls tls, ServerNoiseConfig noise) {
        if (rpcPort == ServerConfig.DISABLED) {
            return null;
        }
        RpcDispatcher methods = new RpcDispatcher();
        new BenchMethods().registerOn(methods);
        RpcService.Builder service = RpcService.builder().rpc(limits).dispatcher(methods).agent(true);
        if (token != null) {
            service.authenticator(RpcAuthenticator.bearerToken(token));
        }
        try {
            Checks.inRange("tcpPort", rpcPort, ServerConfig.DISABLED, 65_535);
            Listener rpc = service.build().listener(rpcPort).idleTimeout(rpcIdleTimeout).reusePort(false).name("rpc");
            return rpcTls ? rpc.tls(tls) : rpcNoise ? rpc.noise(noise) : rpc;
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.RPC);
        }
    }

    /** The RPC layer's limits: the defaults, with --rpc-auth-timeout. */
    private RpcConfig rpcLimits() {
        try {
            return RpcConfig.builder().authTimeout(rpcAuthTimeout).build();
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.RPC_LIMITS);
        }
    }

    /** The metrics port's limits. */
    private MetricsEndpointConfig metricsConfig() {
        try {
            return MetricsEndpointConfig.DEFAULTS.withMaxConnections(metricsMaxConnections)
                    .withMaxConnectionsPerAddress(metricsMaxConnectionsPerAddress);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.METRICS);
        }
    }

    /** The RPC clients' token, the first line of --rpc-token-file; null without one. */
    private String rpcToken() {
        if (rpcTokenFile == null) {
            return null;
        }
        if (rpcPort == ServerConfig.DISABLED) {
            throw new ParameterException(spec.commandLine(), "--rpc-token-file needs the RPC port (--rpc-port is -1)");
        }
        String token;
        try {
            token = Files.readAllLines(rpcTokenFile).stream().findFirst().orElse("").strip();
        } catch (IOException | UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "--rpc-token-file " + rpcTokenFile + ": cannot read it ("
                    + e.getMessage() + ")");
        }
        if (token.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--rpc-token-file " + rpcTokenFile
                    + ": its first line is empty (expected: the token)");
        }
        return token;
    }

    /** The key and handshake bounds of the Noise port and --rpc-noise; null when neither is asked for. */
    private ServerNoiseConfig noise() {
        if (rpcNoise && (rpcTls || rpcPort == ServerConfig.DISABLED)) {
            throw new ParameterException(spec.commandLine(), rpcTls ? "--rpc-noise with --rpc-tls (expected: one or the other)"
                    : "--rpc-noise needs the RPC port (--rpc-port is -1)");
        }
        if (noisePort == ServerConfig.DISABLED && !rpcNoise) {
            if (noiseKey != null || noiseGenerateKey) {
                throw new ParameterException(spec.commandLine(), "--noise-key and --noise-generate-key need --noise-port or --rpc-noise");
            }
            for (String flag : List.of("--noise-max-handshakes", "--noise-max-handshakes-per-address",
                    "--noise-handshake-threads")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                    throw new ParameterException(spec.commandLine(), flag + " needs --noise-port or --rpc-noise");
                }
            }
            return null;
        }
        try {
            Checks.inRange("noisePort", noisePort, ServerConfig.DISABLED, 65_535);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.ECHO);
        }
        // The bounds first: a bad one is a usage error before any key file is made.
        noiseConfig(NoiseKeyPair.generate());
        if (noiseKey == null) {
            if (noiseGenerateKey) {
                throw new ParameterException(spec.commandLine(), "--noise-generate-key needs --noise-key FILE to write it to");
            }
            return noiseConfig(NoiseKeyPair.generate());
        }
        try {
            if (noiseGenerateKey && !Files.exists(noiseKey)) {
                NoiseKeyPair made = NoiseKeyPair.generate();
                made.write(noiseKey);
                return noiseConfig(made);
            }
            return noiseConfig(NoiseKeyPair.read(noiseKey));
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--noise-key " + noiseKey + ": cannot write it (" + e.getMessage() + ")");
        } catch (IllegalArgumentException e) {
            throw UsageErrors.invalidValue(spec.commandLine(), e.getMessage()
                    + (Files.exists(noiseKey) ? "" : " (add --noise-generate-key to make one)"));
        }
    }

    /** {@code key} with the Noise flags' handshake bounds. */
    private ServerNoiseConfig noiseConfig(NoiseKeyPair key) {
        try {
            ServerNoiseConfig.Builder builder = ServerNoiseConfig.builder(key).maxHandshakes(noiseMaxHandshakes)
                    .handshakeThreads(noiseHandshakeThreads);
            if (noiseMaxHandshakesPerAddress != null) {
                builder.maxHandshakesPerAddress(noiseMaxHandshakesPerAddress);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.NOISE);
        }
    }

    /** The PEM files of the TLS port, the QUIC port and --rpc-tls; null when none is asked for. */
    private ServerTlsConfig tlsFiles() {
        if (quicRetry && quicPort == ServerConfig.DISABLED) {
            throw new ParameterException(spec.commandLine(), "--quic-retry needs --quic-port");
        }
        if (tlsPort == ServerConfig.DISABLED && !rpcTls) {
            // QUIC's handshakes are quiche's, inside the QUIC codec: these bound only TLS over TCP.
            for (String flag : FlagNames.TLS.values()) {
                if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                    throw new ParameterException(spec.commandLine(), flag + " needs --tls-port or --rpc-tls");
                }
            }
        }
        if (tlsPort == ServerConfig.DISABLED && quicPort == ServerConfig.DISABLED && !rpcTls) {
            if (tlsCert != null || tlsKey != null || tlsClientCa != null) {
                throw new ParameterException(spec.commandLine(),
                        "--tls-cert, --tls-key and --tls-client-ca need --tls-port, --quic-port or --rpc-tls");
            }
            return null;
        }
        try {
            Checks.inRange("tlsPort", tlsPort, ServerConfig.DISABLED, 65_535);
            Checks.inRange("quicPort", quicPort, ServerConfig.DISABLED, 65_535);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.ECHO);
        }
        if (tlsCert == null || tlsKey == null) {
            throw new ParameterException(spec.commandLine(), (rpcTls ? "--rpc-tls"
                    : tlsPort != ServerConfig.DISABLED ? "--tls-port" : "--quic-port")
                    + " needs --tls-cert and --tls-key (for local runs, make a pair with openssl; see docs/security.md)");
        }
        try {
            ServerTlsConfig.Builder builder = ServerTlsConfig.builder(tlsCert, tlsKey).provider(TlsProvider.parse(tlsProvider))
                    .handshakesPerAddress(tlsHandshakesPerAddress).handshakeThreads(tlsHandshakeThreads);
            if (tlsClientCa != null) {
                builder.clientCa(tlsClientCa);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.TLS);
        }
    }

    /** A context built from the PEM files; one that cannot be read or parsed is a usage error naming the file. */
    private <T> T context(Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw UsageErrors.invalidValue(spec.commandLine(), e.getMessage());
        }
    }

    static String hostPort(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
