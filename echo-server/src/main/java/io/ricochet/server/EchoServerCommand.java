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
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.metrics.JvmProcessMetrics;
import io.ricochet.metrics.MetricsEndpoint;
import io.ricochet.metrics.MetricsEndpointConfig;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.rpc.RpcService;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.tls.Tls;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.server.ServerBuilder;
import io.ricochet.transport.server.ServerStartException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code echo-server} command: the server's own flags, and its lifecycle (start, the listening lines, the graceful
 * stop). The flags of the RPC port, the metrics port, TLS and Noise, and what they build, are mixins of their own
 * ({@link RpcFlags}, {@link MetricsFlags}, {@link TlsFlags}, {@link NoiseFlags}).
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

    @Mixin
    RpcFlags rpc = new RpcFlags();

    @Mixin
    MetricsFlags metrics = new MetricsFlags();

    @Mixin
    TlsFlags tls = new TlsFlags();

    @Mixin
    NoiseFlags noise = new NoiseFlags();

    EchoServerCommand(SignalShutdown shutdown) {
        this.shutdown = shutdown;
    }

    @Override
    public Integer call() throws Exception {
        CommandLine cli = spec.commandLine();
        ServerConfig config = config();
        MetricsEndpointConfig metricsConfig = metrics.config(cli);
        ServerTlsConfig tlsFiles = tls.files(cli);
        Tls tlsContext = tls.tls(cli, tlsFiles);
        QuicSslContext quicTls = tls.quic(cli, tlsFiles);
        RpcFlags.Checked rpcChecked = rpc.check(cli);
        ServerNoiseConfig noiseConfig = noise.config(cli, tls.rpcTls, rpc.port);
        Listener rpcListener = rpc.listener(cli, rpcChecked, tls.rpcTls ? tlsContext : null,
                noise.rpcNoise ? noiseConfig : null);
        List<Listener> listeners = listeners(config, tlsContext, quicTls, noiseConfig, rpcListener);
        // Before anything slow, so a SIGTERM during startup still ends in a graceful stop.
        shutdown.install();
        PrintWriter out = cli.getOut();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EventLoops loops;
        try {
            // One group, sized to the cores (or --io-threads), for every listener.
            loops = EventLoops.create(transport, ioThreads, "echo-io");
        } catch (IllegalStateException e) {
            cli.getErr().println("echo-server: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        // The ports share the process's descriptors: together they stay below the open-file limit, with room kept for
        // what is open now (the loops made above among it) and for the metrics port, so /health is answered when
        // every connection allowed is open.
        OpenFileLimit.Budget descriptors = OpenFileLimit.budget(metrics.port == ServerConfig.DISABLED ? 0
                : metricsConfig.maxConnections());
        ConnectionBudget budget = new ConnectionBudget(descriptors.connections());
        // On stderr, as the log: stdout holds the listening lines, in their documented order, for scripts.
        cli.getErr().println(descriptors.describe());
        cli.getErr().flush();
        if (maxConnections != null && maxConnections > budget.limit()) {
            cli.getErr().println("echo-server: --max-connections " + maxConnections + " is more than the "
                    + "open-file limit (" + OpenFileLimit.current() + ") leaves for connections; connections past "
                    + budget.limit() + " are refused");
        }
        try (JvmProcessMetrics jvmMetrics = new JvmProcessMetrics()) {
            jvmMetrics.bindTo(registry);
            ServerBuilder builder = RicochetServer.builder().config(config).handler(new ReverseEchoHandler())
                    .eventLoops(loops, true).meterRegistry(registry).name("echo").connectionBudget(budget);
            listeners.forEach(builder::listen);
            RicochetServer server = builder.build();
            MetricsEndpoint endpoint = null;
            try {
                server.startAndAwait();
                if (metrics.port != ServerConfig.DISABLED) {
                    endpoint = MetricsEndpoint.start(metrics.host != null ? metrics.host : host, metrics.port, registry,
                            metricsConfig);
                }
                printListening(out, server, noiseConfig, endpoint);
                shutdown.await();
            } catch (ServerStartException | IllegalStateException e) {
                cli.getErr().println("echo-server: " + e.getMessage());
                return ExitCodes.FAILURE;
            } finally {
                // Every listener drains at once, then the loops stop.
                server.stop().join();
                if (endpoint != null) {
                    endpoint.close();
                }
            }
        }
        return ExitCodes.OK;
    }

    /**
     * The echo listeners, each port's meters tagged as docs/protocol.md says (TCP and UDP under the server's name
     * {@code echo}, the others under their own), then the RPC one.
     */
    private List<Listener> listeners(ServerConfig config, Tls tlsContext, QuicSslContext quicTls,
            ServerNoiseConfig noiseConfig, Listener rpcListener) {
        List<Listener> listeners = new ArrayList<>();
        if (config.tcpEnabled()) {
            listeners.add(Listener.tcp(config.tcpPort()));
        }
        if (config.udpEnabled()) {
            listeners.add(Listener.udp(config.udpPort()));
        }
        if (tls.port != ServerConfig.DISABLED) {
            listeners.add(Listener.tcp(tls.port).tls(tlsContext).name("tls"));
        }
        if (noise.port != ServerConfig.DISABLED) {
            listeners.add(Listener.tcp(noise.port).noise(noiseConfig).name("noise"));
        }
        if (quicTls != null) {
            listeners.add(Listener.quic(tls.quicPort, quicTls).name("quic"));
        }
        if (rpcListener != null) {
            listeners.add(rpcListener);
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
                    .quicRetry(tls.quicRetry);
            if (maxFrame != null) {
                builder.maxFrame(maxFrame);
            }
            if (maxConnections != null) {
                builder.maxConnections(maxConnections);
            }
            if (maxConnectionsPerAddress != null) {
                builder.maxConnectionsPerAddress(maxConnectionsPerAddress);
            }
            Checks.inRange("metricsPort", metrics.port, ServerConfig.DISABLED, 65_535);
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(spec.commandLine(), e, FlagNames.ECHO);
        }
    }

    static String hostPort(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
