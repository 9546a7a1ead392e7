package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.workload.RpcWorkload;
import picocli.CommandLine;

/** The no-code RPC workload of rpc's --proto flags; every problem a usage error naming its flag. */
final class NoCodeRpc {
    private NoCodeRpc() {
    }

    static RpcWorkload workload(CommandLine cli, RpcWorkloadOptions o) {
        throw RpcWorkloadOptions.usage(cli, "--proto: not built yet");
    }
}
