package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What both RPC commands take beside their clients and amount of work: body size, deadline, uncounted warmup. */
final class RpcOptions {
    @Option(names = "--size", converter = ValueConverters.ByteSizeConverter.class, defaultValue = "32", description = "Body bytes of each call (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--timeout", defaultValue = "10s", converter = ValueConverters.DurationConverter.class,
            description = "Deadline of each call or registration step (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--warmup", converter = ValueConverters.LongCountConverter.class, defaultValue = "0", description = "Untimed calls (rpc) or cycles (register) run first, "
            + "on the same connections, to warm both JITs; a count, not a duration (default: ${DEFAULT-VALUE}).")
    long warmup;

    @Mixin
    FirstConnectionOption firstConnection = new FirstConnectionOption();
}
