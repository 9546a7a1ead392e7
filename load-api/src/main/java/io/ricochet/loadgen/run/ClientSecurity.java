package io.ricochet.loadgen.run;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.scenario.TlsSettings;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.NoiseMode;
import io.ricochet.tls.ClientTlsConfig;
import io.ricochet.tls.QuicResumption;
import io.ricochet.tls.Tls;
import io.ricochet.tls.TlsProvider;
import io.ricochet.transport.Protocol;
import java.util.function.UnaryOperator;

/**
 * A scenario's client security, built: its TLS (over TCP), its QUIC TLS, or its Noise channel, each handshake bounded
 * by the scenario's timeout. A file that cannot be read or a key that does not parse is a {@link ScenarioException}.
 *
 * <pre>{@code
 * ClientSecurity security = ClientSecurity.of(scenario);
 * LoadSpec spec = LoadSpecs.of(scenario, security);
 * }</pre>
 *
 * @param tls   the client's TLS over TCP, or null
 * @param noise the client's Noise channel, or null
 * @param quic  the client's QUIC TLS, or null unless the transport is QUIC
 */
public record ClientSecurity(Tls tls, ClientNoiseConfig noise, QuicSslContext quic) {
    /** None: plaintext. */
    public static final ClientSecurity NONE = new ClientSecurity(null, null, null);

    /** What {@code s} connects with; a QUIC client uses session tickets as crr's {@code tls.resume} says. */
    public static ClientSecurity of(Scenario s) {
        TlsSettings t = s.tls();
        Tls tls = null;
        if (t.enabled()) {
            Tls built = build("tls", () -> config(t, b -> b.provider(TlsProvider.parse(t.provider()))
                    .keyBits(s.keyBits() == null ? 0 : s.keyBits())).build());
            tls = new Tls(built.context(), s.timeout(), built.provider());
        }
        QuicSslContext quic = null;
        if (s.transport() == Protocol.QUIC && !s.command().rpc()) {
            QuicResumption resumption = s.command() != Command.CRR ? QuicResumption.RESUME
                    : t.earlyData() ? QuicResumption.EARLY_DATA : t.resume() ? QuicResumption.RESUME
                    : QuicResumption.NEVER;
            quic = build("tls", () -> config(t, b -> b).buildQuic(Protocol.QUIC_ALPN, resumption));
        }
        ClientNoiseConfig noise = null;
        if (s.noise().enabled()) {
            noise = build("noise", () -> ClientNoiseConfig.builder(NoiseKeyPair.parsePublicKey(s.noise().serverKey()))
                    .mode(s.noise().mode() == null ? NoiseMode.PACKAGE : NoiseMode.parse(s.noise().mode()))
                    .keyBits(s.keyBits() == null ? 256 : s.keyBits()).handshakeTimeout(s.timeout()).build());
        }
        return new ClientSecurity(tls, noise, quic);
    }

    /** Whom the client trusts and its own certificate, as {@code t} says, with {@code extra} settings added. */
    private static ClientTlsConfig config(TlsSettings t, UnaryOperator<ClientTlsConfig.Builder> extra) {
        ClientTlsConfig.Builder b = extra.apply(ClientTlsConfig.builder());
        if (t.insecure()) {
            b.insecure();
        } else if (t.ca() != null) {
            b.trustedCa(t.ca());
        }
        if (t.clientCert() != null) {
            b.clientCertificate(t.clientCert(), t.clientKey());
        }
        return b.build();
    }

    private static <T> T build(String key, java.util.function.Supplier<T> make) {
        try {
            return make.get();
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            // A CA or key file that cannot be read, a provider that does not load here: the message names it.
            throw new ScenarioException(key, e.getMessage());
        }
    }
}
