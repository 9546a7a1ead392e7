package io.ricochet.server;

import io.ricochet.commandline.UsageErrors;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.Checks;
import io.ricochet.config.ServerConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.ServerNoiseConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The echo server's Noise flags (the Noise port, --rpc-noise), and the key and bounds they give. */
final class NoiseFlags {
    @Option(names = "--noise-port", defaultValue = "-1",
            description = "Noise channel port for the echo protocol (Noise_NK_25519_AESGCM_SHA256, docs/protocol.md); "
                    + "-1 = off (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--noise-key", paramLabel = "FILE",
            description = "The Noise port's static private key (base64, one line). Without it a key is made for "
                    + "this run only; its public half is printed either way.")
    Path key;

    @Option(names = "--noise-generate-key",
            description = "Make a new key into --noise-key FILE (owner-only) if it does not exist yet.")
    boolean generateKey;

    @Option(names = "--rpc-noise", description = "Serve the RPC port over the Noise channel too, with the Noise key.")
    boolean rpcNoise;

    @Option(names = "--noise-max-handshakes", defaultValue = "" + ServerNoiseConfig.DEFAULT_MAX_HANDSHAKES,
            converter = ValueConverters.CountConverter.class, description = "Noise handshakes in progress at once on the Noise port (and "
                    + "on the RPC port with --rpc-noise), from the first message to the answer; one past it is closed "
                    + "before any key agreement (default: ${DEFAULT-VALUE}).")
    int maxHandshakes;

    @Option(names = "--noise-max-handshakes-per-address", converter = ValueConverters.CountConverter.class,
            description = "Noise handshakes in progress at once from one source address (an IPv6 /64 counts as one); "
                    + "one past it is closed before any key agreement (default: an eighth of --noise-max-handshakes).")
    Integer maxHandshakesPerAddress;

    @Option(names = "--noise-handshake-threads", defaultValue = "0",
            description = "Threads that compute Noise handshakes, apart from the event loops, so a flood of handshakes "
                    + "takes no more CPU than they have; 0 = a quarter of the cores, at least one (default: ${DEFAULT-VALUE}).")
    int handshakeThreads;

    /**
     * The key and handshake bounds of the Noise port and --rpc-noise; null when neither is asked for. {@code rpcTls} and
     * {@code rpcPort}: --rpc-noise needs the RPC port, and not over TLS as well.
     */
    ServerNoiseConfig config(CommandLine cli, boolean rpcTls, int rpcPort) {
        if (rpcNoise && (rpcTls || rpcPort == ServerConfig.DISABLED)) {
            throw new ParameterException(cli, rpcTls ? "--rpc-noise with --rpc-tls (expected: one or the other)"
                    : "--rpc-noise needs the RPC port (--rpc-port is -1)");
        }
        if (port == ServerConfig.DISABLED && !rpcNoise) {
            if (key != null || generateKey) {
                throw new ParameterException(cli, "--noise-key and --noise-generate-key need --noise-port or --rpc-noise");
            }
            for (String flag : List.of("--noise-max-handshakes", "--noise-max-handshakes-per-address",
                    "--noise-handshake-threads")) {
                if (cli.getParseResult().hasMatchedOption(flag)) {
                    throw new ParameterException(cli, flag + " needs --noise-port or --rpc-noise");
                }
            }
            return null;
        }
        try {
            Checks.inRange("noisePort", port, ServerConfig.DISABLED, 65_535);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(cli, e, FlagNames.ECHO);
        }
        // The bounds first: a bad one is a usage error before any key file is made.
        bounded(cli, NoiseKeyPair.generate());
        if (key == null) {
            if (generateKey) {
                throw new ParameterException(cli, "--noise-generate-key needs --noise-key FILE to write it to");
            }
            return bounded(cli, NoiseKeyPair.generate());
        }
        try {
            if (generateKey && !Files.exists(key)) {
                NoiseKeyPair made = NoiseKeyPair.generate();
                made.write(key);
                return bounded(cli, made);
            }
            return bounded(cli, NoiseKeyPair.read(key));
        } catch (IOException e) {
            throw new ParameterException(cli, "--noise-key " + key + ": cannot write it (" + e.getMessage() + ")");
        } catch (IllegalArgumentException e) {
            throw UsageErrors.invalidValue(cli, e.getMessage()
                    + (Files.exists(key) ? "" : " (add --noise-generate-key to make one)"));
        }
    }

    /** {@code pair} with the flags' handshake bounds. */
    private ServerNoiseConfig bounded(CommandLine cli, NoiseKeyPair pair) {
        try {
            ServerNoiseConfig.Builder builder = ServerNoiseConfig.builder(pair).maxHandshakes(maxHandshakes)
                    .handshakeThreads(handshakeThreads);
            if (maxHandshakesPerAddress != null) {
                builder.maxHandshakesPerAddress(maxHandshakesPerAddress);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(cli, e, FlagNames.NOISE);
        }
    }
}
