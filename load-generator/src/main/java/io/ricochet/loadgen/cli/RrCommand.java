package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;

@picocli.CommandLine.Command(name = "rr", mixinStandardHelpOptions = true, sortOptions = false,
        description = "netperf TCP_RR: one connection, one request in flight; QPS is round trips per second.")
final class RrCommand extends ScenarioCommand {
    @Mixin
    LoadOptions load;

    @Override
    Command command() {
        return Command.RR;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        load.applyTo(b, given);
    }

    @Override
    WorkloadOptions workloadOptions() {
        return load.requests.workload;
    }
}
