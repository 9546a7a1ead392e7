package io.ricochet.loadgen.cli;

import io.ricochet.commandline.UsageErrors;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.run.FrameRuns;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.tls.QuicResumption;
import io.ricochet.transport.Protocol;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "crr", mixinStandardHelpOptions = true, sortOptions = false,
        description = "netperf TCP_CRR: connect, one request, verified reply, close, per transaction; "
                + "latency from connect to reply.")
final class CrrCommand extends ScenarioCommand {
    @Mixin
    LoadOptions load;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--concurrency", converter = ValueConverters.CountConverter.class, defaultValue = "1", description = "Transactions in progress at once (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--tls-resume", description = "Over TLS or QUIC, resume the session of an earlier transaction "
            + "where the server allows it, instead of a full handshake per transaction.")
    boolean resume;

    @Option(names = "--early-data", description = "Over QUIC, resume and send each request as 0-RTT early data with "
            + "the handshake, where the server accepts it.")
    boolean earlyData;

    @Override
    public int run(RunHooks hooks) throws Exception {
        boolean quic = load.protocol == Protocol.QUIC;
        if (resume && !common.tls.enabled && !quic) {
            throw UsageErrors.invalidValue(commandSpec.commandLine(), "--tls-resume without --tls "
                    + "or --transport quic");
        }
        if (earlyData && !quic) {
            throw UsageErrors.invalidValue(commandSpec.commandLine(), "--early-data without "
                    + "--transport quic");
        }
        if (load.protocol == Protocol.UDP) {
            throw UsageErrors.invalidValue(commandSpec.commandLine(), "transport: udp (crr "
                    + "connects: tcp or quic)");
        }
        QuicResumption resumption = earlyData ? QuicResumption.EARLY_DATA
                : resume ? QuicResumption.RESUME : QuicResumption.NEVER;
        LoadSpec.Builder builder = Scenarios.validated(commandSpec, common, load, b -> b.protocol(load.protocol)
                .connections(concurrency));
        FrameWorkload workload = Scenarios.workload(commandSpec, common, load);
        Plans.checkAlone(commandSpec);
        try (RunSupport.Target target = RunSupport.target(commandSpec.commandLine(), common, load.field(),
                Scenarios.embeddedMaxFrame(load, workload), Duration.ofSeconds(30), false,
                load.protocol, resumption, System.err)) {
            LoadSpec spec = builder.targets(target.address(load.protocol))
                    .tls(RunSupport.within(target.tls(), load.timeout)).quic(target.quic())
                    .noise(RunSupport.within(target.noise(), load.timeout)).build();
            Summary summary = FrameRuns.perRequest("crr", spec, workload, resume, new RunOptions("crr",
                    target.scrape(), common.report, System.err, Scenarios.config("crr", spec, load), hooks));
            java.io.PrintWriter out = commandSpec.commandLine().getOut();
            return RunSupport.conclude(common, summary, RunSupport.exitStatus(summary, common.maxErrorRate),
                    () -> io.ricochet.loadgen.report.SummaryTable.print(summary, out), out);
        }
    }
}
