package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.engine.RpcLoad;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.workload.RpcWorkload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "rpc", mixinStandardHelpOptions = true, sortOptions = false,
        description = "RPC load (nbagent's RPC test, ghz's): --clients connections make --requests calls in all, "
                + "--in-flight at a time each, every answer checked. By default bench.update of the echo server; "
                + "any method with --proto and --data, or a workload with --workload. --target is the RPC port.")
final class RpcCommand extends ScenarioCommand {
    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--clients", converter = ValueConverters.CountConverter.class, defaultValue = "50", description = "Clients, one connection each (default: ${DEFAULT-VALUE}).")
    int clients;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--requests", converter = ValueConverters.LongCountConverter.class, defaultValue = "200000", description = "Calls in all, e.g. 200k, split evenly (default: ${DEFAULT-VALUE}).")
    long requests;

    @Option(names = "--in-flight", converter = ValueConverters.CountConverter.class, defaultValue = "1",
            description = "Calls each client keeps waiting, pipelined on its connection (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Shard(Shard.Rule.SPLIT_RATE)
    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "Total calls/s, open loop, latency corrected for coordinated omission; 0 = closed loop "
                    + "(default: ${DEFAULT-VALUE}).")
    double rate;

    @Mixin
    RpcOptions rpc;

    @Mixin
    RpcWorkloadOptions calls = new RpcWorkloadOptions();

    @Override
    io.ricochet.loadgen.workload.Workload workload() {
        return calls.resolve(commandSpec.commandLine(), rpc.size, common.seed);
    }

    @Override
    WorkloadOptions workloadOptions() {
        return calls.workload;
    }

    @Override
    public int run(RunHooks hooks) throws Exception {
        RpcWorkload workload = calls.resolve(commandSpec.commandLine(), rpc.size, common.seed);
        return RpcScenarios.run("rpc", commandSpec, common, clients, requests, inFlight, rate, rpc, calls.describe(),
                spec -> new RpcLoad(spec, workload), hooks);
    }
}
