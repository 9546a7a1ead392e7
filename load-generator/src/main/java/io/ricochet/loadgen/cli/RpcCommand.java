package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@picocli.CommandLine.Command(name = "rpc", mixinStandardHelpOptions = true, sortOptions = false,
        description = "RPC load (nbagent's RPC test, ghz's): --clients connections make --requests calls in all, "
                + "--in-flight at a time each, every answer checked. By default bench.update of the echo server; "
                + "any method with --proto and --data, or a workload with --workload. --target is the RPC port.")
final class RpcCommand extends ScenarioCommand {
    @Option(names = "--clients", converter = ValueConverters.CountConverter.class, defaultValue = "50", description = "Clients, one connection each (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--requests", converter = ValueConverters.LongCountConverter.class, defaultValue = "200000", description = "Calls in all, e.g. 200k, split evenly (default: ${DEFAULT-VALUE}).")
    long requests;

    @Option(names = "--in-flight", converter = ValueConverters.CountConverter.class, defaultValue = "1",
            description = "Calls each client keeps waiting, pipelined on its connection (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class,
            description = "Total calls/s, open loop, latency corrected for coordinated omission; 0 = closed loop "
                    + "(default: ${DEFAULT-VALUE}).")
    double rate;

    @Mixin
    RpcOptions rpc;

    @Mixin
    RpcWorkloadOptions calls = new RpcWorkloadOptions();

    @Override
    Command command() {
        return Command.RPC;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        if (given.test("--clients")) {
            b.connections(clients);
        }
        if (given.test("--requests")) {
            b.requests(requests);
        }
        if (given.test("--in-flight")) {
            b.inFlight(inFlight);
        }
        if (given.test("--rate")) {
            b.rate(rate);
        }
        rpc.applyTo(b, given);
        calls.applyTo(b, given);
    }

    @Override
    WorkloadOptions workloadOptions() {
        return calls.workload;
    }
}
