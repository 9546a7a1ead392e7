package io.ricochet.loadgen.scenario;

import io.ricochet.config.InvalidValueException;
import io.ricochet.loadgen.scenario.ScenarioException.Key;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.NoiseMode;
import io.ricochet.tls.TlsProvider;
import io.ricochet.transport.Protocol;

/**
 * The checks of a {@link Scenario}'s TLS and Noise settings, against each other and the transport: UDP datagrams carry
 * neither, QUIC always runs TLS 1.3 (taking the trust settings without {@code tls.enabled}), and Noise runs alone over
 * TCP.
 */
final class SecurityRules {
    private SecurityRules() {
    }

    static void check(Scenario s) {
        tls(s.tls(), s.transport());
        noise(s);
    }

    private static void tls(TlsSettings t, Protocol protocol) {
        if (protocol == Protocol.QUIC && t.enabled()) {
            throw new ScenarioException("tls.enabled", Key.of("tls.enabled"), " with the quic transport (expected: no ",
                    Key.of("tls.enabled"), "; QUIC always runs TLS 1.3, trusting ", Key.of("tls.ca"), " or ",
                    Key.of("tls.insecure"), ")");
        }
        if (!t.enabled() && protocol != Protocol.QUIC) {
            String stray = t.ca() != null ? "tls.ca" : t.insecure() ? "tls.insecure" : t.clientCert() != null
                    ? "tls.client_cert" : t.clientKey() != null ? "tls.client_key"
                    : !t.provider().equalsIgnoreCase("auto") ? "tls.provider" : null;
            if (stray != null) {
                throw new ScenarioException(stray, Key.of(stray), " without ", Key.of("tls.enabled"));
            }
            return;
        }
        if (protocol == Protocol.UDP) {
            throw new ScenarioException("tls.enabled", Key.of("tls.enabled"), " with the udp transport (expected: tcp; "
                    + "datagrams carry no TLS)");
        }
        if (t.ca() != null && t.insecure()) {
            throw new ScenarioException("tls.ca", Key.of("tls.ca"), " " + t.ca() + " with ", Key.of("tls.insecure"),
                    " (expected: one or the other)");
        }
        if (t.clientCert() == null && t.clientKey() != null) {
            throw new ScenarioException("tls.client_key", Key.of("tls.client_key"), " " + t.clientKey() + " without ",
                    Key.of("tls.client_cert"));
        }
        if (t.clientCert() != null && t.clientKey() == null) {
            throw new ScenarioException("tls.client_cert", Key.of("tls.client_cert"), " " + t.clientCert()
                    + " without ", Key.of("tls.client_key"));
        }
        try {
            TlsProvider.parse(t.provider());
        } catch (IllegalArgumentException e) {
            throw new ScenarioException("tls.provider", e.getMessage());
        }
    }

    private static void noise(Scenario s) {
        Integer bits = s.keyBits();
        NoiseSettings n = s.noise();
        if (bits != null && bits != 128 && bits != 256) {
            throw new InvalidValueException("key_bits", bits.toString(), "128 or 256");
        }
        if (!n.enabled()) {
            if (bits != null && !s.tls().enabled()) {
                throw new ScenarioException("key_bits", Key.of("key_bits"), " without ", Key.of("tls.enabled"), ", ",
                        Key.of("noise.server_key"), " or ", Key.of("noise.mode"));
            }
            return;
        }
        if (s.transport() != Protocol.TCP) {
            throw new ScenarioException("noise.server_key", Key.of("noise.server_key"), " or ", Key.of("noise.mode"),
                    " with the " + s.transport().tag() + " transport (expected: tcp)");
        }
        if (s.tls().enabled()) {
            throw new ScenarioException("tls.enabled", Key.of("tls.enabled"), " with ", Key.of("noise.server_key"),
                    " or ", Key.of("noise.mode"), " (expected: one or the other)");
        }
        if (n.serverKey() == null && s.target() != null) {
            throw new ScenarioException("noise.mode", Key.of("noise.mode"), " with ", Key.of("target"), " needs ",
                    Key.of("noise.server_key"), " (the server's public key, as it prints it)");
        }
        if (n.serverKey() != null) {
            try {
                // Built once, so a key of the wrong length or a low-order point is refused here, by name.
                ClientNoiseConfig.builder(NoiseKeyPair.parsePublicKey(n.serverKey())).build();
            } catch (IllegalArgumentException e) {
                throw new ScenarioException("noise.server_key", e.getMessage());
            }
        }
        if (n.mode() != null) {
            try {
                NoiseMode.parse(n.mode());
            } catch (IllegalArgumentException e) {
                throw new ScenarioException("noise.mode", e.getMessage());
            }
        }
    }
}
