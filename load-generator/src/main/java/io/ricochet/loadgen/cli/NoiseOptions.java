package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.NoiseSettings;
import io.ricochet.loadgen.scenario.Scenario;
import java.util.function.Predicate;
import picocli.CommandLine.Option;

/** The client side of the Noise channel, for every command that opens TCP connections; the scenario checks them. */
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

    /** Sets on {@code b} what the flags among these that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given) {
        NoiseSettings n = b.noise();
        b.noise(new NoiseSettings(given.test("--noise-key") ? serverKey : n.serverKey(),
                given.test("--encrypt") ? mode : n.mode()));
        if (given.test("--key-bits")) {
            b.keyBits(keyBits);
        }
    }
}
