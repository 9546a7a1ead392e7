package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.engine.RpcLoad;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.rpc.Registration;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "register", mixinStandardHelpOptions = true, sortOptions = false,
        description = "nbagent's registration test on --pairs of clients. A cycle: A registers a fresh URI at the "
                + "agent, B calls it (A answers), A unregisters, B's next call must get NOT_FOUND. Latency per "
                + "cycle and per step. --target is the RPC port.")
final class RegisterCommand extends ScenarioCommand {
    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--pairs", converter = ValueConverters.CountConverter.class, defaultValue = "10", description = "Client pairs (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--cycles", converter = ValueConverters.LongCountConverter.class, defaultValue = "10000", description = "Cycles in all, e.g. 10k, split evenly (default: ${DEFAULT-VALUE}).")
    long cycles;

    @Mixin
    RpcOptions rpc;

    @Override
    public int run(RunHooks hooks) throws Exception {
        return RpcScenarios.run("register", commandSpec, common, pairs, cycles, 1, 0, rpc,
                Map.of("name", "register"),
                spec -> new RpcLoad(spec, new Registration(rpc.size, spec.seed(), spec.timeout())), hooks);
    }
}
