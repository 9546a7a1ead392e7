package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@picocli.CommandLine.Command(name = "echo", mixinStandardHelpOptions = true, sortOptions = false,
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

    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "Total requests/s, e.g. 50k, open loop, latency corrected for coordinated omission; 0 = closed loop.")
    double rate;

    @Override
    Command command() {
        return Command.ECHO;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        load.applyTo(b, given);
        connections.applyTo(b, given);
        if (given.test("--pipeline")) {
            b.pipeline(pipeline);
        }
        if (given.test("--rate")) {
            b.rate(rate);
        }
    }

    @Override
    WorkloadOptions workloadOptions() {
        return load.requests.workload;
    }
}
