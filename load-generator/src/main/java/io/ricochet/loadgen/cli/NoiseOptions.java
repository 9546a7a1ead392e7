package io.ricochet.loadgen.cli;

import static io.ricochet.commandline.UsageErrors.invalidValue;

import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.NoiseMode;
import io.ricochet.transport.Protocol;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The client side of the Noise channel, for every command that opens TCP connections. */
final class NoiseOptions {
    @Option(names = "--noise-key", paramLabel = "PUBKEY",
            description = "Connect over the Noise channel to a server with this static public key (base64, as the "
                    + "echo server prints it). Without --target the embedded server serves Noise with a key of its own.")
    String serverKey;

    @Option(names = "--encrypt", paramLabel = "MODE",
            description = "Noise mode: package (one message per frame) or stream (one per flushed batch); turns "
                    + "Noise on (default: package).")
    String mode;

    @Option(names = "--key-bits", description = "AES-GCM key length, 128 or 256, of Noise (default: 256) or of --tls "
            + "(default: the provider's choice; with openssl it means TLS 1.2, as BoringSSL cannot restrict TLS 1.3 suites).")
    Integer keyBits;

    /** The TLS key length asked for, or 0 for the provider's choice. */
    int tlsKeyBits() {
        return keyBits == null ? 0 : keyBits;
    }

    boolean enabled() {
        return serverKey != null || mode != null;
    }

    /** Checks the flags agree with each other, TLS and the transport. */
    void validate(CommandLine cli, Protocol protocol, boolean tls, boolean embedded) {
        if (keyBits != null && keyBits != 128 && keyBits != 256) {
            throw invalidValue(cli, "--key-bits " + keyBits + " (expected: 128 or 256)");
        }
        if (!enabled()) {
            if (keyBits != null && !tls) {
                throw invalidValue(cli, "--key-bits without --tls, --noise-key or --encrypt");
            }
            return;
        }
        if (protocol != Protocol.TCP) {
            throw invalidValue(cli,
                    "--noise-key or --encrypt with the " + protocol.tag() + " transport (expected: tcp)");
        }
        if (tls) {
            throw invalidValue(cli, "--tls with --noise-key or --encrypt (expected: one or the other)");
        }
        if (serverKey == null && !embedded) {
            throw invalidValue(cli,
                    "--encrypt with --target needs --noise-key (the server's public key, as it prints it)");
        }
        if (serverKey != null) {
            config(cli, null, Duration.ofSeconds(1));
        } else if (mode != null) {
            // The embedded server's key, made later, will be pinned: only the mode is left to check now.
            try {
                NoiseMode.parse(mode);
            } catch (IllegalArgumentException e) {
                throw invalidValue(cli, e.getMessage());
            }
        }
    }

    /**
     * The client's Noise channel, or null without it; {@code embeddedKey} is pinned when {@code --noise-key} was not
     * given. The handshake is bounded by {@code timeout}.
     */
    ClientNoiseConfig config(CommandLine cli, byte[] embeddedKey, Duration timeout) {
        if (!enabled()) {
            return null;
        }
        try {
            byte[] pinned = serverKey != null ? NoiseKeyPair.parsePublicKey(serverKey) : embeddedKey;
            return ClientNoiseConfig.builder(pinned).mode(mode == null ? NoiseMode.PACKAGE : NoiseMode.parse(mode))
                    .keyBits(keyBits == null ? 256 : keyBits).handshakeTimeout(timeout).build();
        } catch (IllegalArgumentException e) {
            throw invalidValue(cli, e.getMessage());
        }
    }
}
