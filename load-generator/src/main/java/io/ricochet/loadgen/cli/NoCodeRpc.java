package io.ricochet.loadgen.cli;

import static io.ricochet.commandline.UsageErrors.invalidValue;

import io.ricochet.loadgen.protobuf.DescriptorSet;
import io.ricochet.loadgen.protobuf.DynamicRpcWorkload;
import io.ricochet.loadgen.protobuf.Expectation;
import io.ricochet.loadgen.protobuf.MessageType;
import io.ricochet.loadgen.protobuf.RequestData;
import io.ricochet.loadgen.workload.RpcWorkload;
import io.ricochet.rpc.RpcStatus;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The no-code RPC workload of rpc's {@code --proto} flags, as ghz's: any method, its request made from JSON and its
 * answer checked against JSON, with the types from a descriptor set. Every problem is a usage error naming its flag,
 * found before any connection is made. The method's name is the one the server registered, which a .proto does not
 * declare: a name the server does not serve is answered NOT_FOUND, and the first bad reply says so.
 */
final class NoCodeRpc {
    private NoCodeRpc() {
    }

    static RpcWorkload workload(CommandLine cli, RpcWorkloadOptions o, long seed) {
        for (String[] required : new String[][] {{"--method", o.method}, {"--request-type", o.requestType},
            {"--response-type", o.responseType}}) {
            if (required[1] == null) {
                throw invalidValue(cli, "--proto without " + required[0] + " (expected: --method, "
                        + "--request-type and --response-type with it)");
            }
        }
        DescriptorSet set = flag(cli, "--proto", () -> DescriptorSet.load(o.proto));
        MessageType request = flag(cli, "--request-type " + o.requestType, () -> set.messageType(o.requestType));
        MessageType response = flag(cli, "--response-type " + o.responseType, () -> set.messageType(o.responseType));
        RequestData data = flag(cli, "--data", () -> RequestData.parse(o.data == null ? "{}" : o.data, request, seed));
        RpcStatus status = o.expectStatus == null ? RpcStatus.OK
                : flag(cli, "--expect-status", () -> Expectation.status(o.expectStatus));
        if (o.expect != null && status != RpcStatus.OK) {
            throw invalidValue(cli, "--expect with --expect-status " + status + " (expected: --expect "
                    + "only for OK answers, which alone carry a message)");
        }
        Expectation expectation = flag(cli, "--expect", () -> o.expect == null && status == RpcStatus.OK
                ? Expectation.anyAnswer(response) : Expectation.of(response, status, o.expect, seed));
        return flag(cli, "--method", () -> new DynamicRpcWorkload(o.method, data, expectation));
    }

    /** {@code make}'s result; its {@link IllegalArgumentException} a usage error of {@code flag}. */
    private static <T> T flag(CommandLine cli, String flag, Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            throw invalidValue(cli, flag + ": " + e.getMessage());
        }
    }
}
