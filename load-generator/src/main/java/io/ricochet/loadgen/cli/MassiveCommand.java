package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.RunHooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "massive", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Held connections (FPNN TCPMassiveConnectionsTest): ramp to --connections at --connect-rate, "
                + "hold for --duration at --per-connection-rate; reports connects, connect time and echo latency. "
                + "One process holds what its open-file limit allows; spread millions over workers.")
final class MassiveCommand implements ScenarioCommand {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;
    @Mixin
    LoadOptions load;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--connections", defaultValue = "10000", description = "Connections to hold (default: ${DEFAULT-VALUE}).")
    int connections;

    @Shard(Shard.Rule.SPLIT_RATE)
    @Option(names = "--connect-rate", defaultValue = "2000", converter = Converters.RateConverter.class,
            description = "New connections per second (default: ${DEFAULT-VALUE}).")
    double connectRate;

    @Option(names = "--per-connection-rate", defaultValue = "0.04", converter = Converters.RateConverter.class,
            description = "Requests/s on each held connection (default: ${DEFAULT-VALUE}).")
    double perConnectionRate;

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public int run(RunHooks hooks) throws Exception {
        return Scenarios.runEcho("massive", commandSpec, common, load, connections, connectRate, 1, 0,
                perConnectionRate, hooks);
    }
}
