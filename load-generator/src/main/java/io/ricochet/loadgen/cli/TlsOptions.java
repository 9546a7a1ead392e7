package io.ricochet.loadgen.cli;

import static io.ricochet.commandline.UsageErrors.invalidValue;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.tls.ClientTlsConfig;
import io.ricochet.tls.QuicResumption;
import io.ricochet.tls.Tls;
import io.ricochet.tls.TlsProvider;
import io.ricochet.transport.Protocol;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The client side of TLS, for every command that opens TCP connections. */
final class TlsOptions {
    @Option(names = "--tls", description = "Connect over TLS (TCP only; QUIC has its own). Without --target the "
            + "embedded server serves TLS with a throwaway CA that the client trusts.")
    boolean enabled;

    @Shard(Shard.Rule.ABSOLUTE_FILE)
    @Option(names = "--tls-ca", paramLabel = "FILE",
            description = "PEM CA certificates the server's certificate must chain to (default: the JDK's trust store).")
    Path ca;

    @Option(names = "--insecure", description = "Trust any server certificate and skip the name check (tests only).")
    boolean insecure;

    @Shard(Shard.Rule.ABSOLUTE_FILE)
    @Option(names = "--client-cert", paramLabel = "FILE", description = "PEM client certificate chain, for mutual TLS.")
    Path clientCert;

    @Shard(Shard.Rule.ABSOLUTE_FILE)
    @Option(names = "--client-key", paramLabel = "FILE", description = "Its PEM PKCS#8 private key.")
    Path clientKey;

    @Option(names = "--tls-provider", defaultValue = "auto",
            description = "auto, openssl or jdk (default: ${DEFAULT-VALUE}).")
    String provider;

    /**
     * Checks the flags agree with each other and with the transport: UDP datagrams carry no TLS, and QUIC always
     * runs TLS 1.3, so it takes the trust flags without {@code --tls}.
     */
    void validate(CommandLine cli, Protocol protocol) {
        if (protocol == Protocol.QUIC && enabled) {
            throw invalidValue(cli, "--tls with the quic transport (expected: no --tls; QUIC always runs TLS 1.3, "
                    + "trusting --tls-ca or --insecure)");
        }
        if (!enabled && protocol != Protocol.QUIC) {
            String stray = ca != null ? "--tls-ca" : insecure ? "--insecure" : clientCert != null ? "--client-cert"
                    : clientKey != null ? "--client-key" : !provider.equalsIgnoreCase("auto") ? "--tls-provider" : null;
            if (stray != null) {
                throw invalidValue(cli, stray + " without --tls");
            }
            return;
        }
        if (protocol == Protocol.UDP) {
            throw invalidValue(cli, "--tls with the udp transport (expected: tcp; datagrams carry no TLS)");
        }
        if (ca != null && insecure) {
            throw invalidValue(cli, "--tls-ca " + ca + " with --insecure (expected: one or the other)");
        }
        if ((clientCert == null) != (clientKey == null)) {
            throw invalidValue(cli, (clientCert == null ? "--client-key " + clientKey + " without --client-cert"
                    : "--client-cert " + clientCert + " without --client-key"));
        }
        providerChoice(cli);
    }

    TlsProvider providerChoice(CommandLine cli) {
        try {
            return TlsProvider.parse(provider);
        } catch (IllegalArgumentException e) {
            throw invalidValue(cli, e.getMessage());
        }
    }

    /** Whether the client brings its own trust (a CA file or none at all), so an embedded CA is not needed. */
    boolean trustGiven() {
        return ca != null || insecure;
    }

    /**
     * The client's TLS, or null without {@code --tls}; {@code embeddedCa} (may be null) is trusted when
     * neither {@code --tls-ca} nor {@code --insecure} was given; {@code keyBits} as {@code --key-bits} (0: any). Unreadable files are a usage error.
     */
    Tls client(CommandLine cli, Path embeddedCa, int keyBits) {
        if (!enabled) {
            return null;
        }
        ClientTlsConfig config = config(cli, embeddedCa, b -> b.provider(providerChoice(cli)).keyBits(keyBits));
        try {
            return config.build();
        } catch (IllegalArgumentException e) {
            throw invalidValue(cli, e.getMessage());
        }
    }

    /**
     * The client's QUIC TLS, trusting as {@link #client} does, offering Ricochet's ALPN, using session tickets as
     * {@code resumption} says. Unreadable files are a usage error.
     */
    QuicSslContext quic(CommandLine cli, Path embeddedCa, QuicResumption resumption) {
        ClientTlsConfig config = config(cli, embeddedCa, b -> b);
        try {
            return config.buildQuic(Protocol.QUIC_ALPN, resumption);
        } catch (IllegalArgumentException e) {
            throw invalidValue(cli, e.getMessage());
        }
    }

    /** Whom the client trusts and its own certificate, as the flags say, with {@code extra} settings added. */
    private ClientTlsConfig config(CommandLine cli, Path embeddedCa, UnaryOperator<ClientTlsConfig.Builder> extra) {
        ClientTlsConfig.Builder b = extra.apply(ClientTlsConfig.builder());
        if (insecure) {
            b.insecure();
        } else if (ca != null) {
            b.trustedCa(ca);
        } else if (embeddedCa != null) {
            b.trustedCa(embeddedCa);
        }
        if (clientCert != null) {
            b.clientCertificate(clientCert, clientKey);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw invalidValue(cli, e.getMessage());
        }
    }
}
