package io.ricochet.loadgen.cli;

import io.ricochet.config.LengthField;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.NoiseSettings;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.TlsSettings;
import io.ricochet.loadgen.workload.Workload;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.tls.TlsProvider;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * A scenario's target made real: its {@code target}, or without one an echo server started in this process on
 * ephemeral loopback ports, sized as the scenario needs (its largest frame, its idle time), serving TLS with a
 * throwaway CA or Noise with a key of its own when the scenario connects so. The scenario it gives back names that
 * server, and trusts its CA or pins its key unless the scenario says whom to trust: the same for a run alone and for
 * a controller's workers.
 */
final class EmbeddedTargets {
    private EmbeddedTargets() {
    }

    /**
     * The scenario to run and what to scrape, and the embedded server if one was started (closed with it).
     *
     * @param scenario the scenario, its target and trust resolved
     * @param scrape   the servers' metrics URLs: the scenario's, or the embedded server's
     */
    record Target(Scenario scenario, List<URI> scrape, EmbeddedTarget embedded, EmbeddedCertificates certificates)
            implements AutoCloseable {
        @Override
        public void close() {
            if (embedded != null) {
                embedded.close();
            }
            if (certificates != null) {
                certificates.close();
            }
        }
    }

    /** {@code s}'s target, or an embedded echo server's; {@code workload} (null for none) sizes its frames. */
    static Target resolve(Scenario s, Workload workload, PrintStream err) {
        if (s.target() != null) {
            return new Target(s, s.scrape(), null, null);
        }
        boolean quic = s.transport() == Protocol.QUIC && !s.command().rpc();
        NoiseKeyPair key = s.noise().enabled() ? NoiseKeyPair.generate() : null;
        EmbeddedCertificates certificates = s.tls().enabled() || quic ? new EmbeddedCertificates() : null;
        try {
            EmbeddedTarget embedded = new EmbeddedTarget(lengthField(s), maxFrame(s, workload), s.serverIoThreads(),
                    idleTimeout(s), s.command().rpc(), s.tls().enabled()
                            ? certificates.serverTls(TlsProvider.parse(s.tls().provider())) : null,
                    key == null ? null : ServerNoiseConfig.of(key), quic ? certificates.serverQuic() : null);
            err.println(embedded.describe());
            TlsSettings t = s.tls();
            if (certificates != null && !t.trustGiven()) {
                // The embedded server's throwaway CA, which the client trusts unless told whom to trust.
                t = new TlsSettings(t.enabled(), certificates.ca(), t.insecure(), t.clientCert(), t.clientKey(),
                        t.provider(), t.resume(), t.earlyData());
            }
            NoiseSettings n = s.noise();
            if (key != null && n.serverKey() == null) {
                // The embedded server's own key, which the client pins unless given another.
                n = new NoiseSettings(key.publicKeyBase64(), n.mode());
            }
            Targets address = Targets.of(s.command().rpc() ? embedded.rpcAddress() : switch (s.transport()) {
                case TCP -> embedded.server().tcpAddress();
                case UDP -> embedded.server().udpAddress();
                case QUIC -> embedded.quicAddress();
            });
            Scenario resolved = s.toBuilder().target(address).tls(t).noise(n).build();
            return new Target(resolved, s.scrape().isEmpty() ? List.of(embedded.metricsUri()) : s.scrape(), embedded,
                    certificates);
        } catch (RuntimeException e) {
            if (certificates != null) {
                certificates.close();
            }
            throw e;
        }
    }

    private static LengthField lengthField(Scenario s) {
        return s.command().rpc() ? LengthField.TWO : s.lengthField();
    }

    /**
     * The embedded server's max frame: the length field's default, or more for the largest body the scenario sends
     * (generated bodies of its size, a payload, sweep's largest step), so the server takes every request it is sent.
     */
    static int maxFrame(Scenario s, Workload workload) {
        LengthField field = lengthField(s);
        int largest = switch (s.command()) {
            case RPC, REGISTER -> 0;
            case SWEEP -> Math.max(s.sweep().maxSize(), s.sweep().countSize());
            default -> workload instanceof PayloadWorkload p ? p.maxBodyLength() : s.bodySize().max();
        };
        return Math.max(field.defaultMaxFrame(), Math.min(largest, field.largestMaxFrame()));
    }

    /** An embedded server's idle timeout: three requests at a held connection's rate, 30 s at least. */
    static Duration idleTimeout(Scenario s) {
        double perConnection = s.command() == Command.ECHO || s.command() == Command.MASSIVE ? s.perConnectionRate() : 0;
        return Duration.ofSeconds(Math.max(30, (long) (perConnection > 0 ? 3 / perConnection : 0)));
    }
}
