package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.workload.FrameWorkload;
import picocli.CommandLine;
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

    /** What config.json says of the workload: its name and parameters, or the payload and expectation. */
    java.util.Map<String, Object> describe() {
        java.util.Map<String, Object> d = new java.util.LinkedHashMap<>();
        if (workload.given()) {
            d.put("name", workload.name);
            d.put("jars", workload.jars.stream().map(Object::toString).toList());
            d.put("parameters", workload.parameters);
        } else {
            d.put("payload", payload == null ? "generated" : payload);
            d.put("expect", expect == null ? "reversed" : expect);
        }
        return d;
    }

    private FrameWorkload resolved;

    /** The workload these options name, made once; {@code sizes} are {@code --size}'s, for generated bodies. */
    FrameWorkload resolve(CommandLine cli, int minSize, int maxSize, long seed) {
        if (resolved == null) {
            resolved = make(cli, minSize, maxSize, seed);
        }
        return resolved;
    }

    private FrameWorkload make(CommandLine cli, int minSize, int maxSize, long seed) {
        if (workload.given()) {
            if (payload != null || expect != null) {
                throw new CommandLine.ParameterException(cli, "invalid option value: --" + (payload != null ? "payload"
                        : "expect") + " with --workload (expected: one of them; the workload makes its requests and "
                        + "checks its replies)");
            }
            return WorkloadCatalog.load(cli, workload.jars).create(cli, workload.name, workload.parameters,
                    FrameWorkload.class, "a framed workload, for this command; an RPC workload runs with rpc");
        }
        return PayloadWorkload.generated(seed, minSize, maxSize);
    }
}
