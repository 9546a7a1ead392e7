package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.SizeRange;
import io.ricochet.loadgen.scenario.WorkloadSettings;
import java.time.Duration;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What both RPC commands take beside their clients and amount of work: body size, deadline, uncounted warmup. */
final class RpcOptions {
    @Option(names = "--size", converter = ValueConverters.ByteSizeConverter.class, defaultValue = "32", description = "Body bytes of each call (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--timeout", defaultValue = "10s", converter = ValueConverters.DurationConverter.class,
            description = "Deadline of each call or registration step (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--warmup", converter = ValueConverters.LongCountConverter.class, defaultValue = "0", description = "Untimed calls (rpc) or cycles (register) run first, "
            + "on the same connections, to warm both JITs; a count, not a duration (default: ${DEFAULT-VALUE}).")
    long warmup;

    @Mixin
    FirstConnectionOption firstConnection = new FirstConnectionOption();

    /** Sets on {@code b} what the flags among these that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given) {
        if (given.test("--size")) {
            WorkloadSettings w = b.workload();
            b.workload(new WorkloadSettings(w.name(), w.jars(), w.params(), w.payload(), w.expect(), SizeRange.of(size),
                    w.proto(), w.method(),
                    w.requestType(), w.responseType(), w.data(), w.expectStatus()));
        }
        if (given.test("--timeout")) {
            b.timeout(timeout);
        }
        if (given.test("--warmup")) {
            b.warmupRequests(warmup);
        }
        firstConnection.applyTo(b, given);
    }
}
