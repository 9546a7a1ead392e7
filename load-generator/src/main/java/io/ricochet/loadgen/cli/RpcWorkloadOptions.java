package io.ricochet.loadgen.cli;

import static io.ricochet.commandline.UsageErrors.invalidValue;

import io.ricochet.loadgen.rpc.BenchUpdate;
import io.ricochet.loadgen.workload.RpcWorkload;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What rpc calls and how it checks the answers: a workload from a jar; with no code, any method of a descriptor set
 * with JSON data (as ghz does); by default the echo server's {@code bench.update}.
 */
final class RpcWorkloadOptions {
    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Shard(Shard.Rule.ABSOLUTE_FILE)
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

    /** Whether these options name a workload other than the built-in bench.update. */
    boolean given() {
        return workload.given() || proto != null;
    }

    private RpcWorkload resolved;

    /** The workload these options name, made once; {@code size} and {@code seed} make bench.update's bodies. */
    RpcWorkload resolve(CommandLine cli, int size, long seed) {
        if (resolved == null) {
            resolved = make(cli, size, seed);
        }
        return resolved;
    }

    private RpcWorkload make(CommandLine cli, int size, long seed) {
        if (workload.given() && proto != null) {
            throw invalidValue(cli, "--proto with --workload (expected: one of them)");
        }
        if (workload.given()) {
            return workload.create(cli, RpcWorkload.class,
                    "an RPC workload, for rpc; a framed workload runs with echo, rr, crr or massive");
        }
        if (proto != null) {
            return NoCodeRpc.workload(cli, this, seed);
        }
        for (String flag : new String[] {"--method", "--request-type", "--response-type", "--data", "--expect",
            "--expect-status"}) {
            if (cli.getParseResult() != null && cli.getParseResult().hasMatchedOption(flag)) {
                throw invalidValue(cli, flag + " without --proto (expected: --proto FILE naming its types)");
            }
        }
        return new BenchUpdate(size, seed);
    }

    /** What config.json says of the workload. */
    Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        if (workload.given()) {
            workload.describeInto(d);
        } else if (proto != null) {
            d.put("proto", proto.toString());
            d.put("method", method);
            d.put("request_type", requestType);
            d.put("response_type", responseType);
            d.put("data", data);
            d.put("expect", expect);
            d.put("expect_status", expectStatus == null ? "OK" : expectStatus);
        } else {
            d.put("name", "bench.update");
        }
        return d;
    }
}
