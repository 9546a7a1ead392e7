package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.Scenario;
import java.util.function.Predicate;
import picocli.CommandLine.Option;

/**
 * The hidden flag that numbers this process's first connection among a run's, so that a workload's {@code {{conn}}}
 * is unique over the run: taken by every command that opens connections of its own (an RPC client's connection is
 * the client). A controller's workers get theirs in their scenario.
 */
final class FirstConnectionOption {
    @Option(names = "--first-connection", hidden = true, defaultValue = "0",
            description = "The run-wide number of this process's first connection (of an RPC command, its first "
                    + "client).")
    long value;

    void applyTo(Scenario.Builder b, Predicate<String> given) {
        if (given.test("--first-connection")) {
            b.firstConnection(value);
        }
    }
}
