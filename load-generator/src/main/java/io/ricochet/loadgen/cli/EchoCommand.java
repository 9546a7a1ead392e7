package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.engine.RunHooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "echo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Stress test (FPNN TCPStressTest/UDPStressTest, the CFW echo test): connections x rate, "
                + "pipelined, every reply verified.")
final class EchoCommand extends ScenarioCommand {
    @Mixin
    LoadOptions load;
    @Mixin
    ConnectionOptions connections = new ConnectionOptions(10, 0, 0);

    @Option(names = "--pipeline", converter = ValueConverters.CountConverter.class, defaultValue = "1",
            description = "Requests in flight per connection (default: ${DEFAULT-VALUE}).")
    int pipeline;

    @Shard(Shard.Rule.SPLIT_RATE)
    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "Total requests/s, e.g. 50k, open loop, latency corrected for coordinated omission; 0 = closed loop.")
    double rate;

    @Override
    public int run(RunHooks hooks) throws Exception {
        return Scenarios.runEcho("echo", commandSpec, common, load, connections, pipeline, rate, hooks);
    }
}
