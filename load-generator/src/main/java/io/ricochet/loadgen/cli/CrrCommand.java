package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.CrrLoad;
import io.ricochet.loadgen.scenario.LoadSpec;
import io.ricochet.loadgen.scenario.RunOptions;
import io.ricochet.loadgen.scenario.LoadRun;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.transport.Protocol;
import java.time.Duration;
import io.ricochet.loadgen.scenario.RunHooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

@Command(name = "crr", mixinStandardHelpOptions = true, sortOptions = false,
        description = "netperf TCP_CRR: connect, one request, verified reply, close, per transaction; "
                + "latency from connect to reply.")
final class CrrCommand extends ScenarioCommand {
    @Mixin
    LoadOptions load;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--concurrency", converter = Converters.CountConverter.class, defaultValue = "1", description = "Transactions in progress at once (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--tls-resume", description = "Over TLS, resume the session of an earlier transaction where the "
            + "server allows it, instead of a full handshake per transaction.")
    boolean resume;

    @Override
    public int run(RunHooks hooks) throws Exception {
        if (resume && !common.tls.enabled) {
            throw new ParameterException(commandSpec.commandLine(), "invalid option value: --tls-resume without --tls");
        }
        if (load.protocol == Protocol.UDP) {
            throw new ParameterException(commandSpec.commandLine(), "invalid option value: transport: udp (crr "
                    + "connects: tcp or quic)");
        }
        if (resume && load.protocol == Protocol.QUIC) {
            throw new ParameterException(commandSpec.commandLine(), "invalid option value: --tls-resume with the "
                    + "quic transport (expected: tcp; QUIC transactions make full handshakes)");
        }
        LoadSpec.Builder builder = Scenarios.validated(commandSpec, common, load, b -> b.protocol(load.protocol)
                .connections(concurrency));
        Plans.checkAlone(commandSpec);
        try (RunSupport.Target target = RunSupport.target(commandSpec.commandLine(), common, load.field(),
                Math.max(load.field().defaultMaxFrame(), load.size.max()), Duration.ofSeconds(30), load.protocol,
                System.err)) {
            LoadSpec spec = builder.targets(target.address(load.protocol))
                    .tls(RunSupport.within(target.tls(), load.timeout)).quic(target.quic())
                    .noise(RunSupport.within(target.noise(), load.timeout)).build();
            Summary summary = new LoadRun(spec, new RunOptions("crr", target.scrape(), common.report, System.err,
                    Scenarios.config("crr", spec), hooks), s -> new CrrLoad(s, resume)).run();
            java.io.PrintWriter out = commandSpec.commandLine().getOut();
            return RunSupport.conclude(common, summary, RunSupport.exitStatus(summary, common.maxErrorRate),
                    () -> io.ricochet.loadgen.report.SummaryTable.print(summary, out), out);
        }
    }
}
