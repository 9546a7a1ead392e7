package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.LoadSpec;
import io.ricochet.loadgen.scenario.RunHooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "echo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Stress test (FPNN TCPStressTest/UDPStressTest, the CFW echo test): connections x rate, "
                + "pipelined, every reply verified.")
final class EchoCommand implements ScenarioCommand {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;
    @Mixin
    LoadOptions load;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--connections", defaultValue = "10", description = "Connections (default: ${DEFAULT-VALUE}).")
    int connections;

    @Shard(Shard.Rule.SPLIT_RATE)
    @Option(names = "--connect-rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "New connections per second while ramping; 0 = all at once (default: ${DEFAULT-VALUE}).")
    double connectRate;

    @Option(names = "--pipeline", defaultValue = "1",
            description = "Requests in flight per connection (default: ${DEFAULT-VALUE}).")
    int pipeline;

    @Shard(Shard.Rule.SPLIT_RATE)
    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "Total requests/s, open loop, latency corrected for coordinated omission; 0 = closed loop.")
    double rate;

    @Option(names = "--per-connection-rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "Requests/s per connection, open loop, e.g. 0.04/s for held connections.")
    double perConnectionRate;

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public int run(RunHooks hooks) throws Exception {
        return Scenarios.runEcho("echo", commandSpec, common, load, connections, connectRate, pipeline, rate,
                perConnectionRate, hooks);
    }
}
