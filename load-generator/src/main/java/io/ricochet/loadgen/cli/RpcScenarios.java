package io.ricochet.loadgen.cli;

import io.ricochet.config.LengthField;
import io.ricochet.internal.Checks;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.RpcSummaryTable;
import io.ricochet.loadgen.rpc.RpcBenchSpec;
import io.ricochet.loadgen.rpc.RpcRun;
import io.ricochet.loadgen.rpc.RpcWorkload;
import io.ricochet.loadgen.scenario.RunOptions;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;

/** Runs the RPC commands: the target (the embedded server's RPC port by default), the run, the output, the exit status. */
final class RpcScenarios {
    private RpcScenarios() {
    }

    static int run(String command, CommandSpec commandSpec, CommonOptions common, int clients, long total,
            int inFlight, RpcOptions rpc, Function<RpcBenchSpec, RpcWorkload> workload,
            io.ricochet.loadgen.scenario.RunHooks hooks) throws InterruptedException {
        int size = rpc.size;
        Duration timeout = rpc.timeout;
        long warmup = rpc.warmup;
        try {
            Checks.notNegative("warmup", warmup);
            Checks.positive("clients", clients);
            Checks.positive("requests", total);
            Checks.positive("inFlight", inFlight);
            Checks.inRange("size", size, 0, 1 << 20);
            Checks.positive("timeout", timeout);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(commandSpec, e);
        }
        RunSupport.requireOneTarget(commandSpec.commandLine(), common, command);
        PrintWriter out = commandSpec.commandLine().getOut();
        PrintStream err = System.err;
        try (RunSupport.Target resolved = RunSupport.target(commandSpec.commandLine(), common, LengthField.TWO,
                LengthField.TWO.defaultMaxFrame(), Duration.ofSeconds(30), true, Protocol.TCP, err)) {
            InetSocketAddress target = resolved.rpc();
            List<URI> scrape = resolved.scrape();
            RpcBenchSpec spec = new RpcBenchSpec(target, clients, total, warmup, inFlight, size, timeout, common.seed,
                    common.io, common.ioThreads, RunSupport.within(resolved.tls(), timeout),
                    RunSupport.within(resolved.noise(), timeout));
            if (warmup > 0) {
                err.println("warmup: " + warmup + (command.equals("register") ? " cycles" : " calls")
                        + " on the same connections, not counted");
            }
            RunOptions options = new RunOptions(command, scrape, common.report, err, config(command, spec), hooks);
            RpcSummary summary;
            try (RpcWorkload load = workload.apply(spec)) {
                summary = new RpcRun(spec, options, common.interval).run(load);
            }
            RpcSummary finished = summary;
            return RunSupport.conclude(common, summary, exitStatus(summary, common.maxErrorRate),
                    () -> RpcSummaryTable.print(finished, out), out);
        }
    }

    static int exitStatus(RpcSummary s, double maxErrorRate) {
        if (s.bad() > 0 || s.receivedOk() == 0) {
            return ExitCodes.FAILED;
        }
        return s.errors() > maxErrorRate * s.requests() ? ExitCodes.FAILED : ExitCodes.OK;
    }

    static Map<String, Object> config(String command, RpcBenchSpec spec) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", command);
        c.put("target", spec.target().getHostString() + ":" + spec.target().getPort());
        c.put("clients", spec.clients());
        c.put("total", spec.total());
        c.put("warmup", spec.warmup());
        c.put("in_flight", spec.inFlight());
        c.put("size", spec.bodySize());
        c.put("timeout_s", spec.timeout().toNanos() / 1e9);
        c.put("seed", spec.seed());
        c.put("io_threads", spec.ioThreads());
        c.put("client_io", spec.io().label());
        c.put("tls", spec.tls() == null ? "off" : spec.tls().provider());
        c.put("noise", spec.noise() == null ? "off" : spec.noise().mode().label() + "/" + spec.noise().keyBits());
        return c;
    }
}
