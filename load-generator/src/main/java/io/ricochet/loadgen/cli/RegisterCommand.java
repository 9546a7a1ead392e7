package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.rpc.RegisterLoad;
import io.ricochet.loadgen.scenario.RunHooks;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "register", mixinStandardHelpOptions = true, sortOptions = false,
        description = "nbagent's registration test on --pairs of clients. A cycle: A registers a fresh URI at the "
                + "agent, B calls it (A answers), A unregisters, B's next call must get NOT_FOUND. Latency per "
                + "cycle and per step. --target is the RPC port.")
final class RegisterCommand implements ScenarioCommand {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--pairs", defaultValue = "10", description = "Client pairs (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--cycles", defaultValue = "10000", description = "Cycles in all, split evenly (default: ${DEFAULT-VALUE}).")
    long cycles;

    @Option(names = "--size", defaultValue = "32", description = "Body bytes of each call (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--timeout", defaultValue = "10s", converter = Converters.DurationConverter.class,
            description = "Deadline of each step (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--warmup", defaultValue = "0",
            description = "Untimed cycles run first, on other connections, to warm both JITs (default: ${DEFAULT-VALUE}).")
    long warmup;

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public int run(RunHooks hooks) throws Exception {
        return RpcScenarios.run("register", commandSpec, common, pairs, cycles, 1, size, timeout, warmup, RegisterLoad::new, hooks);
    }
}
