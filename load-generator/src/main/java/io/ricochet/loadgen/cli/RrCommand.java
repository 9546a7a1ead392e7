package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.engine.RunHooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "rr", mixinStandardHelpOptions = true, sortOptions = false,
        description = "netperf TCP_RR: one connection, one request in flight; QPS is round trips per second.")
final class RrCommand extends ScenarioCommand {
    @Mixin
    LoadOptions load;

    @Override
    public int run(RunHooks hooks) throws Exception {
        return Scenarios.runEcho("rr", commandSpec, common, load, new ConnectionOptions(1, 0, 0), 1, 0, hooks);
    }
}
