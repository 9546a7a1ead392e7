package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.TlsSettings;
import java.nio.file.Path;
import java.util.function.Predicate;
import picocli.CommandLine.Option;

/** The client side of TLS, for every command that opens TCP connections; the scenario checks them together. */
final class TlsOptions {
    @Option(names = "--tls", description = "Connect over TLS (TCP only; QUIC has its own). Without --target the "
            + "embedded server serves TLS with a throwaway CA that the client trusts.")
    boolean enabled;

    @Option(names = "--tls-ca", paramLabel = "FILE",
            description = "PEM CA certificates the server's certificate must chain to (default: the JDK's trust store).")
    Path ca;

    @Option(names = "--insecure", description = "Trust any server certificate and skip the name check (tests only).")
    boolean insecure;

    @Option(names = "--client-cert", paramLabel = "FILE", description = "PEM client certificate chain, for mutual TLS.")
    Path clientCert;

    @Option(names = "--client-key", paramLabel = "FILE", description = "Its PEM PKCS#8 private key.")
    Path clientKey;

    @Option(names = "--tls-provider", defaultValue = "auto",
            description = "auto, openssl or jdk (default: ${DEFAULT-VALUE}).")
    String provider;

    /** Sets on {@code b}'s TLS what the flags among these that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given) {
        TlsSettings t = b.tls();
        b.tls(new TlsSettings(given.test("--tls") ? enabled : t.enabled(), given.test("--tls-ca") ? ca : t.ca(),
                given.test("--insecure") ? insecure : t.insecure(),
                given.test("--client-cert") ? clientCert : t.clientCert(),
                given.test("--client-key") ? clientKey : t.clientKey(),
                given.test("--tls-provider") ? provider : t.provider(), t.resume(), t.earlyData()));
    }
}
