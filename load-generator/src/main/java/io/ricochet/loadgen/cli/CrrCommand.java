package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.TlsSettings;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@picocli.CommandLine.Command(name = "crr", mixinStandardHelpOptions = true, sortOptions = false,
        description = "netperf TCP_CRR: connect, one request, verified reply, close, per transaction; "
                + "latency from connect to reply.")
final class CrrCommand extends ScenarioCommand {
    @Mixin
    LoadOptions load;

    @Option(names = "--concurrency", converter = ValueConverters.CountConverter.class, defaultValue = "1", description = "Transactions in progress at once (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--tls-resume", description = "Over TLS or QUIC, resume the session of an earlier transaction "
            + "where the server allows it, instead of a full handshake per transaction.")
    boolean resume;

    @Option(names = "--early-data", description = "Over QUIC, resume and send each request as 0-RTT early data with "
            + "the handshake, where the server accepts it.")
    boolean earlyData;

    @Override
    Command command() {
        return Command.CRR;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        load.applyTo(b, given);
        if (given.test("--concurrency")) {
            b.connections(concurrency);
        }
        TlsSettings t = b.tls();
        b.tls(new TlsSettings(t.enabled(), t.ca(), t.insecure(), t.clientCert(), t.clientKey(), t.provider(),
                given.test("--tls-resume") ? resume : t.resume(), given.test("--early-data") ? earlyData : t.earlyData()));
    }

    @Override
    WorkloadOptions workloadOptions() {
        return load.requests.workload;
    }
}
