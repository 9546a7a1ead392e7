package io.ricochet.loadgen.cli;

import static io.ricochet.commandline.UsageErrors.invalidValue;

import io.netty.handler.codec.quic.QuicSslContext;
import io.ricochet.commandline.ExitCodes;
import io.ricochet.config.LengthField;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.SummaryTable;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.loadgen.report.threshold.Thresholds;
import io.ricochet.loadgen.run.FrameRuns;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.tls.QuicResumption;
import io.ricochet.tls.Tls;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/** What every command does around its scenario: the embedded target, the output, the exit status. */
final class RunSupport {
    private RunSupport() {
    }

    /**
     * A target to load and, for the embedded server, its metrics; closes the server afterwards. With
     * {@code --target} every address is that one; {@code rpc} is null for an embedded server without RPC.
     * {@code tls} is the client's TLS (null without --tls); {@code embeddedCa} the embedded server's CA when
     * the client trusts it by default (so workers must trust it too), else null. {@code noise} is the client's Noise
     * channel (null without it); {@code embeddedNoiseKey} the embedded server's public key when the client pins it
     * (so workers must too), else null.
     */
    record Target(Targets tcp, Targets udp, Targets quicTargets, InetSocketAddress rpc, List<URI> scrape,
            EmbeddedTarget embedded, Tls tls, QuicSslContext quic, EmbeddedCertificates certificates, Path embeddedCa,
            ClientNoiseConfig noise, String embeddedNoiseKey) implements AutoCloseable {
        Targets address(Protocol protocol) {
            return switch (protocol) {
                case TCP -> tcp;
                case UDP -> udp;
                case QUIC -> quicTargets;
            };
        }

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

    static Target target(CommandLine cli, CommonOptions common, LengthField lengthField, int maxFrame,
            Duration idleTimeout, Protocol protocol, PrintStream err) {
        return target(cli, common, lengthField, maxFrame, idleTimeout, false, protocol, err);
    }

    static Target target(CommandLine cli, CommonOptions common, LengthField lengthField, int maxFrame,
            Duration idleTimeout, boolean withRpc, Protocol protocol, PrintStream err) {
        return target(cli, common, lengthField, maxFrame, idleTimeout, withRpc, protocol, QuicResumption.RESUME, err);
    }

    /**
     * As above; {@code withRpc} also starts the embedded server's RPC port. The TLS flags are checked
     * first, against the {@code protocol} the command sends; with {@code --tls}, or QUIC, and no {@code --target}
     * the embedded server serves TLS with a throwaway CA, which the client trusts unless told whom to trust. A QUIC
     * client uses session tickets as {@code resumption} says.
     */
    static Target target(CommandLine cli, CommonOptions common, LengthField lengthField, int maxFrame,
            Duration idleTimeout, boolean withRpc, Protocol protocol, QuicResumption resumption, PrintStream err) {
        validateSecurityFlags(cli, common, protocol);
        boolean quic = protocol == Protocol.QUIC;
        if (common.target != null) {
            return new Target(common.target, common.target, common.target, common.target.first(), common.scrape, null,
                    common.tls.client(cli, null, common.noise.tlsKeyBits()), quic ? common.tls.quic(cli, null, resumption) : null,
                    null, null, common.noise.config(cli, null, NOISE_HANDSHAKE), null);
        }
        // With --encrypt and no --noise-key, the embedded server's own key is the one pinned.
        NoiseKeyPair embeddedKey = common.noise.enabled() ? NoiseKeyPair.generate() : null;
        ClientNoiseConfig noise = common.noise.config(cli, embeddedKey == null ? null : embeddedKey.publicKey(),
                NOISE_HANDSHAKE);
        EmbeddedCertificates certificates = common.tls.enabled || quic ? new EmbeddedCertificates() : null;
        try {
            Tls client = common.tls.client(cli, certificates == null ? null : certificates.ca(),
                    common.noise.tlsKeyBits());
            EmbeddedTarget embedded = new EmbeddedTarget(lengthField, maxFrame, common.serverIoThreads, idleTimeout,
                    withRpc, common.tls.enabled ? certificates.serverTls(common.tls.providerChoice(cli)) : null,
                    embeddedKey == null ? null : ServerNoiseConfig.of(embeddedKey),
                    quic ? certificates.serverQuic() : null);
            err.println(embedded.describe());
            return new Target(Targets.of(embedded.server().tcpAddress()), Targets.of(embedded.server().udpAddress()),
                    quic ? Targets.of(embedded.quicAddress()) : null, embedded.rpcAddress(),
                    common.scrape.isEmpty() ? List.of(embedded.metricsUri()) : common.scrape, embedded, client,
                    quic ? common.tls.quic(cli, certificates.ca(), resumption) : null,
                    certificates, certificates == null || common.tls.trustGiven() ? null : certificates.ca(), noise,
                    embeddedKey == null || common.noise.serverKey != null ? null : embeddedKey.publicKeyBase64());
        } catch (RuntimeException e) {
            if (certificates != null) {
                certificates.close();
            }
            throw e;
        }
    }

    /** The TLS and Noise flags, each a usage error of its own, against the protocol the command sends. */
    static void validateSecurityFlags(CommandLine cli, CommonOptions common, Protocol protocol) {
        common.tls.validate(cli, protocol);
        common.noise.validate(cli, protocol, common.tls.enabled, common.target == null);
    }

    /** For a command that loads one server (rpc, register, udp-stream): a list of targets is a usage error. */
    static void requireOneTarget(CommandLine cli, CommonOptions common, String command) {
        if (common.target != null && common.target.size() > 1) {
            throw invalidValue(cli, "--target " + common.target
                    + " (expected: one HOST:PORT; " + command + " loads a single server)");
        }
    }

    private static final Duration NOISE_HANDSHAKE = ServerNoiseConfig.DEFAULT_HANDSHAKE_TIMEOUT;

    /** The client's Noise channel with its handshake bounded by the command's {@code --timeout}, or null without it. */
    static ClientNoiseConfig within(ClientNoiseConfig noise, Duration timeout) {
        return noise == null ? null : new ClientNoiseConfig(noise.serverPublicKey(), noise.mode(), noise.keyBits(), timeout);
    }

    /** The client's TLS with its handshake bounded by the command's {@code --timeout}, or null without TLS. */
    static Tls within(Tls tls, Duration timeout) {
        return tls == null ? null : new Tls(tls.context(), timeout, tls.provider());
    }

    static int runAndReport(String command, LoadSpec spec, FrameWorkload workload, CommonOptions common,
            List<URI> scrape, PrintWriter out, PrintStream err, Map<String, Object> config, RunHooks hooks)
            throws InterruptedException {
        Summary summary = FrameRuns.held(command, spec, workload,
                new RunOptions(command, scrape, common.report, err, config, hooks));
        return conclude(common, summary, exitStatus(summary, common.maxErrorRate), () -> SummaryTable.print(summary, out),
                out);
    }

    /**
     * Ends a run: checks its thresholds, prints its summary (as JSON with the thresholds' outcomes, or as {@code table}
     * followed by a line per threshold), keeps the outcomes in the report's {@code summary.json}, and returns the exit
     * status: {@code exit}, or {@link Thresholds#BROKEN_EXIT} when a threshold broke.
     */
    static int conclude(CommonOptions common, Object summary, int exit, Runnable table, PrintWriter out) {
        List<Threshold.Result> results = Thresholds.check(common.thresholds, summary);
        if (common.json) {
            print(Thresholds.withResults(summary, results), true, out);
        } else {
            table.run();
            results.forEach(r -> out.println(r.line()));
            out.flush();
        }
        if (common.report != null) {
            Thresholds.annotate(common.report, results);
        }
        return Thresholds.broken(results) ? Thresholds.BROKEN_EXIT : exit;
    }

    static void print(Object summary, boolean json, PrintWriter out) {
        if (json) {
            try {
                out.println(ReportWriter.JSON.writeValueAsString(summary));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        } else if (summary instanceof Summary s) {
            SummaryTable.print(s, out);
        }
        out.flush();
    }

    /**
     * Bad replies and frames that answered no request always fail the run; errors (and connect and handshake failures)
     * fail it past the tolerated rate.
     */
    static int exitStatus(Summary s, double maxErrorRate) {
        if (s.bad() > 0 || s.unexpected() > 0) {
            return ExitCodes.FAILURE;
        }
        long failures = s.errors() + s.connectFailures() + (s.handshakeFailures() == null ? 0 : s.handshakeFailures());
        if (failures > 0 && failures > maxErrorRate * Math.max(1, s.requests())) {
            return ExitCodes.FAILURE;
        }
        if (s.requests() == 0) {
            return ExitCodes.FAILURE;
        }
        return ExitCodes.OK;
    }
}
