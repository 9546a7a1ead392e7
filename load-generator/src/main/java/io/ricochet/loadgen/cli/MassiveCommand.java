package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.engine.RunHooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "massive", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Held connections (FPNN TCPMassiveConnectionsTest): ramp to --connections at --connect-rate, "
                + "hold for --duration at --per-connection-rate; reports connects, connect time and echo latency. "
                + "One process holds what its open-file limit allows; spread millions over workers.")
final class MassiveCommand extends ScenarioCommand {
    @Mixin
    LoadOptions load;
    @Mixin
    ConnectionOptions connections = new ConnectionOptions(10_000, 2_000, 0.04);

    @Override
    public int run(RunHooks hooks) throws Exception {
        return Scenarios.runEcho("massive", commandSpec, common, load, connections, 1, 0, hooks);
    }
}
