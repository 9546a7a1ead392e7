package io.ricochet.loadgen.cli;

import picocli.CommandLine.Option;

/**
 * The hidden flag a controller numbers its workers' connections with, so that each worker's are numbered on from the
 * last one's and a workload's {@code {{conn}}} is unique over the run: taken by every command that opens connections
 * of its own (an RPC client's connection is the client).
 */
final class FirstConnectionOption {
    @Shard(Shard.Rule.CONNECTION_OFFSET)
    @Option(names = "--first-connection", hidden = true, defaultValue = "0",
            description = "The run-wide number of this process's first connection (of an RPC command, its first "
                    + "client); a controller gives each worker its own.")
    long value;
}
