package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.RunHooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "rr", mixinStandardHelpOptions = true, sortOptions = false,
        description = "netperf TCP_RR: one connection, one request in flight; QPS is round trips per second.")
final class RrCommand implements ScenarioCommand {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;
    @Mixin
    LoadOptions load;

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public int run(RunHooks hooks) throws Exception {
        return Scenarios.runEcho("rr", commandSpec, common, load, 1, 0, 1, 0, 0, hooks);
    }
}
