package io.ricochet.loadgen.cli;

import static io.ricochet.commandline.UsageErrors.invalidValue;

import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.payload.Payloads;
import io.ricochet.loadgen.payload.Template;
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
            workload.describeInto(d);
        } else {
            d.put("payload", payload == null ? "generated" : payload);
            d.put("expect", expect == null ? "reversed" : expect);
        }
        return d;
    }

    private FrameWorkload resolved;

    /**
     * The workload these options name, made once; {@code sizes} are {@code --size}'s, for generated bodies, and
     * {@code largestBody} what one frame (or datagram) of the command carries.
     */
    FrameWorkload resolve(CommandLine cli, int minSize, int maxSize, long seed, int largestBody) {
        if (resolved == null) {
            resolved = make(cli, minSize, maxSize, seed, largestBody);
        }
        return resolved;
    }

    private FrameWorkload make(CommandLine cli, int minSize, int maxSize, long seed, int largestBody) {
        if (workload.given()) {
            if (payload != null || expect != null) {
                throw invalidValue(cli, "--" + (payload != null ? "payload"
                        : "expect") + " with --workload (expected: one of them; the workload makes its requests and "
                        + "checks its replies)");
            }
            return workload.create(cli, FrameWorkload.class,
                    "a framed workload, for this command; an RPC workload runs with rpc");
        }
        Expectation expectation;
        try {
            expectation = expect == null ? Expectation.reversed() : Expectation.parse(expect, seed);
        } catch (IllegalArgumentException e) {
            throw invalidValue(cli, "--expect: " + e.getMessage());
        }
        if (payload == null) {
            return PayloadWorkload.generated(seed, minSize, maxSize, expectation);
        }
        if (cli.getParseResult() != null && cli.getParseResult().hasMatchedOption("--size")) {
            throw invalidValue(cli,
                    "--size with --payload (expected: one of them; the payload's own bytes are its size)");
        }
        PayloadWorkload workload;
        try {
            Template template = Payloads.parse(payload, seed);
            workload = PayloadWorkload.of(template, expectation);
        } catch (IllegalArgumentException e) {
            throw invalidValue(cli, "--payload: " + e.getMessage());
        }
        if (workload.maxBodyLength() > largestBody) {
            throw invalidValue(cli, "--payload: up to " + workload.maxBodyLength() + " bytes (expected: at most "
                    + largestBody + ", what one frame of this --length-field, or one datagram, carries)");
        }
        return workload;
    }
}
