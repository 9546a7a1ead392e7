package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.SizeRange;
import io.ricochet.loadgen.scenario.WorkloadSettings;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a framed command's requests are and how their replies are checked: a workload from a jar, or with no code a
 * {@code --payload} and an {@code --expect}; by default generated bodies of {@code --size}, each reply expected to be
 * the body reversed (the reference echo server's answer).
 */
final class FrameWorkloadOptions {
    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Option(names = "--payload", paramLabel = "TEXT|@FILE|hex:HEX",
            description = "The request body, with placeholders {{seq}}, {{conn}}, {{worker}}, {{rand:N}} and "
                    + "{{time_us}} (default: generated bodies of --size).")
    String payload;

    @Option(names = "--expect", paramLabel = "MODE",
            description = "How a reply is checked: reversed, echo, any, equals:TEXT, equals:@FILE, regex:RE or "
                    + "length:N; placeholders as in --payload (default: reversed).")
    String expect;

    /** Sets on {@code b}'s workload what the flags among these, and {@code --size}, that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given, SizeRange size) {
        workload.applyTo(b, given);
        WorkloadSettings w = b.workload();
        b.workload(new WorkloadSettings(w.name(), w.jars(), w.params(),
                given.test("--payload") ? payload : w.payload(), given.test("--expect") ? expect : w.expect(),
                given.test("--size") ? size : w.size(), w.proto(), w.method(), w.requestType(), w.responseType(),
                w.data(), w.expectStatus()));
    }
}
