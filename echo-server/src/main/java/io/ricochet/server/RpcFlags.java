package io.ricochet.server;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.Checks;
import io.ricochet.config.ServerConfig;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.rpc.RpcAuthenticator;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcService;
import io.ricochet.tls.Tls;
import io.ricochet.transport.server.Listener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The echo server's RPC flags, and the RPC listener they make: the benchmark methods and the agent. */
final class RpcFlags {
    @Option(names = "--rpc-port", defaultValue = "7100",
            description = "RPC port: protobuf envelopes, 4-byte length field (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--rpc-idle-timeout", defaultValue = "10m", converter = ValueConverters.DurationConverter.class,
            description = "Close an RPC connection with no frame for this long. Current clients ping when idle "
                    + "(keepalive, 10 s); the long default also keeps route owners from before keepalive "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration idleTimeout;

    @Option(names = "--rpc-token-file", paramLabel = "FILE",
            description = "Admit only RPC clients that authenticate with the token in FILE (its first line); "
                    + "use with --rpc-tls, or the token crosses the network in the clear.")
    Path tokenFile;

    @Option(names = "--rpc-auth-timeout", defaultValue = "10s", converter = ValueConverters.DurationConverter.class,
            description = "With --rpc-token-file: close an RPC connection that has not authenticated this long after "
                    + "its accept (a Noise handshake included; with --rpc-tls, after its TLS handshake, which has a "
                    + "10 s bound of its own); pings do not extend it (default: ${DEFAULT-VALUE}).")
    Duration authTimeout;

    /** What the flags settle before any listener is made, checked: a bad flag is a usage error before any file is written. */
    record Checked(String token, RpcConfig limits) {
    }

    /** The token file read and the limits checked, before the other ports' flags (a Noise key file may be written). */
    Checked check(CommandLine cli) {
        return new Checked(token(cli), limits(cli));
    }

    /**
     * The RPC listener, over {@code tls} or {@code noise} when either is given: on its own port with its own idle
     * timeout, never shared (a registration made on one process's agent must be found by the calls that follow it);
     * null if off.
     */
    Listener listener(CommandLine cli, Checked checked, Tls tls, ServerNoiseConfig noise) {
        String token = checked.token();
        RpcConfig limits = checked.limits();
        if (port == ServerConfig.DISABLED) {
            return null;
        }
        RpcDispatcher methods = new RpcDispatcher();
        new BenchMethods().registerOn(methods);
        RpcService.Builder service = RpcService.builder().rpc(limits).dispatcher(methods).agent(true);
        if (token != null) {
            service.authenticator(RpcAuthenticator.bearerToken(token));
        }
        try {
            Checks.inRange("tcpPort", port, ServerConfig.DISABLED, 65_535);
            Listener rpc = service.build().listener(port).idleTimeout(idleTimeout).reusePort(false).name("rpc");
            return tls != null ? rpc.tls(tls) : noise != null ? rpc.noise(noise) : rpc;
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(cli, e, FlagNames.RPC);
        }
    }

    /** The RPC layer's limits: the defaults, with --rpc-auth-timeout. */
    private RpcConfig limits(CommandLine cli) {
        try {
            return RpcConfig.builder().authTimeout(authTimeout).build();
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(cli, e, FlagNames.RPC_LIMITS);
        }
    }

    /** The RPC clients' token, the first line of --rpc-token-file; null without one. */
    private String token(CommandLine cli) {
        if (tokenFile == null) {
            return null;
        }
        if (port == ServerConfig.DISABLED) {
            throw new ParameterException(cli, "--rpc-token-file needs the RPC port (--rpc-port is -1)");
        }
        String token;
        try {
            token = Files.readAllLines(tokenFile).stream().findFirst().orElse("").strip();
        } catch (IOException | UncheckedIOException e) {
            throw new ParameterException(cli, "--rpc-token-file " + tokenFile + ": cannot read it ("
                    + e.getMessage() + ")");
        }
        if (token.isEmpty()) {
            throw new ParameterException(cli, "--rpc-token-file " + tokenFile
                    + ": its first line is empty (expected: the token)");
        }
        return token;
    }
}
