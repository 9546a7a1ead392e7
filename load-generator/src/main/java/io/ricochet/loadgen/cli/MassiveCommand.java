package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;

@picocli.CommandLine.Command(name = "massive", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Held connections (FPNN TCPMassiveConnectionsTest): ramp to --connections at --connect-rate, "
                + "hold for --duration at --per-connection-rate; reports connects, connect time and echo latency. "
                + "One process holds what its open-file limit allows; spread millions over workers.")
final class MassiveCommand extends ScenarioCommand {
    @Mixin
    LoadOptions load;
    @Mixin
    ConnectionOptions connections = new ConnectionOptions(10_000, 2_000, 0.04);

    @Override
    Command command() {
        return Command.MASSIVE;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        load.applyTo(b, given);
        connections.applyTo(b, given);
    }

    @Override
    WorkloadOptions workloadOptions() {
        return load.requests.workload;
    }
}
