package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.rpc.UpdateLoad;
import io.ricochet.loadgen.scenario.RunHooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "rpc", mixinStandardHelpOptions = true, sortOptions = false,
        description = "nbagent's RPC test: --clients connections call bench.update for --requests in all, "
                + "--in-flight at a time each; every answer verified. --target is the RPC port.")
final class RpcCommand extends ScenarioCommand {
    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--clients", converter = Converters.CountConverter.class, defaultValue = "50", description = "Clients, one connection each (default: ${DEFAULT-VALUE}).")
    int clients;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--requests", converter = Converters.LongCountConverter.class, defaultValue = "200000", description = "Calls in all, e.g. 200k, split evenly (default: ${DEFAULT-VALUE}).")
    long requests;

    @Option(names = "--in-flight", converter = Converters.CountConverter.class, defaultValue = "1",
            description = "Calls each client keeps waiting, pipelined on its connection (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Mixin
    RpcOptions rpc;

    @Override
    public int run(RunHooks hooks) throws Exception {
        return RpcScenarios.run("rpc", commandSpec, common, clients, requests, inFlight, rpc, UpdateLoad::new, hooks);
    }
}
