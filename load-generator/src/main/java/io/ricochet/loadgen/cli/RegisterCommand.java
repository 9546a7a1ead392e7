package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@picocli.CommandLine.Command(name = "register", mixinStandardHelpOptions = true, sortOptions = false,
        description = "nbagent's registration test on --pairs of clients. A cycle: A registers a fresh URI at the "
                + "agent, B calls it (A answers), A unregisters, B's next call must get NOT_FOUND. Latency per "
                + "cycle and per step. --target is the RPC port.")
final class RegisterCommand extends ScenarioCommand {
    @Option(names = "--pairs", converter = ValueConverters.CountConverter.class, defaultValue = "10", description = "Client pairs (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--cycles", converter = ValueConverters.LongCountConverter.class, defaultValue = "10000", description = "Cycles in all, e.g. 10k, split evenly (default: ${DEFAULT-VALUE}).")
    long cycles;

    @Mixin
    RpcOptions rpc;

    @Override
    Command command() {
        return Command.REGISTER;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        if (given.test("--pairs")) {
            b.connections(pairs);
        }
        if (given.test("--cycles")) {
            b.requests(cycles);
        }
        rpc.applyTo(b, given);
    }
}
