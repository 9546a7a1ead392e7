package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.rpc.UpdateLoad;
import io.ricochet.loadgen.scenario.RunHooks;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "rpc", mixinStandardHelpOptions = true, sortOptions = false,
        description = "nbagent's RPC test: --clients connections call bench.update for --requests in all, "
                + "--in-flight at a time each; every answer verified. --target is the RPC port.")
final class RpcCommand implements ScenarioCommand {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--clients", defaultValue = "50", description = "Clients, one connection each (default: ${DEFAULT-VALUE}).")
    int clients;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--requests", defaultValue = "200000", description = "Calls in all, split evenly (default: ${DEFAULT-VALUE}).")
    long requests;

    @Option(names = "--in-flight", defaultValue = "1",
            description = "Calls each client keeps waiting, pipelined on its connection (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--size", defaultValue = "32", description = "Body bytes in each bench message (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--timeout", defaultValue = "10s", converter = Converters.DurationConverter.class,
            description = "Deadline of each call (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--warmup", defaultValue = "0",
            description = "Untimed requests run first, on other connections, to warm both JITs (default: ${DEFAULT-VALUE}).")
    long warmup;

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public int run(RunHooks hooks) throws Exception {
        return RpcScenarios.run("rpc", commandSpec, common, clients, requests, inFlight, size, timeout, warmup, UpdateLoad::new, hooks);
    }
}
