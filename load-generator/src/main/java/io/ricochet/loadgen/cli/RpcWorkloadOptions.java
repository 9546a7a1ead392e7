package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.WorkloadSettings;
import java.nio.file.Path;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What rpc calls and how it checks the answers: a workload from a jar; with no code, any method of a descriptor set
 * with JSON data (as ghz does); by default the echo server's {@code bench.update}.
 */
final class RpcWorkloadOptions {
    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Option(names = "--proto", paramLabel = "FILE",
            description = "A FileDescriptorSet (protoc --include_imports --descriptor_set_out) holding the method's types.")
    Path proto;

    @Option(names = "--method", paramLabel = "NAME", description = "With --proto: the method (or agent route) to call.")
    String method;

    @Option(names = "--request-type", paramLabel = "FULL.NAME", description = "With --proto: the request's message type.")
    String requestType;

    @Option(names = "--response-type", paramLabel = "FULL.NAME", description = "With --proto: the answer's message type.")
    String responseType;

    @Option(names = "--data", paramLabel = "JSON|@FILE",
            description = "With --proto: the request as JSON, placeholders in string values; @FILE: one JSON object per "
                    + "line, used round robin.")
    String data;

    @Option(names = "--expect", paramLabel = "JSON",
            description = "With --proto: fields the answer must have, as JSON; the first that differs is named.")
    String expect;

    @Option(names = "--expect-status", paramLabel = "CODE",
            description = "With --proto: the status every call must end with (default: OK).")
    String expectStatus;

    /** Sets on {@code b}'s workload what the flags among these that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given) {
        workload.applyTo(b, given);
        WorkloadSettings w = b.workload();
        b.workload(new WorkloadSettings(w.name(), w.jars(), w.params(), w.payload(),
                given.test("--expect") ? expect : w.expect(), w.size(), given.test("--proto") ? proto : w.proto(),
                given.test("--method") ? method : w.method(),
                given.test("--request-type") ? requestType : w.requestType(),
                given.test("--response-type") ? responseType : w.responseType(),
                given.test("--data") ? data : w.data(),
                given.test("--expect-status") ? expectStatus : w.expectStatus()));
    }
}
