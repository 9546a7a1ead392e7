package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.config.LengthField;
import io.ricochet.loadgen.engine.RpcLoad;
import io.ricochet.loadgen.engine.RpcSpec;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.RpcSummaryTable;
import io.ricochet.loadgen.run.RpcRuns;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;

/** Runs the RPC commands: the target (the embedded server's RPC port by default), the run, the output, the exit status. */
final class RpcScenarios {
    private RpcScenarios() {
    }

    /**
     * Runs {@code loadOf}'s load of the spec these options give, {@code workload} describing it for config.json.
     *
     * @param inFlight calls each client keeps waiting
     */
    static int run(String command, CommandSpec commandSpec, CommonOptions common, int clients, long total,
            int inFlight, double rate, RpcOptions rpc, Map<String, Object> workload, Function<RpcSpec, RpcLoad> loadOf,
            RunHooks hooks) throws InterruptedException {
        RpcSpec unresolved = spec(commandSpec, common, clients, total, inFlight, rate, rpc, null);
        RunSupport.requireOneTarget(commandSpec.commandLine(), common, command);
        PrintWriter out = commandSpec.commandLine().getOut();
        PrintStream err = System.err;
        try (RunSupport.Target resolved = RunSupport.target(commandSpec.commandLine(), common, LengthField.TWO,
                LengthField.TWO.defaultMaxFrame(), Duration.ofSeconds(30), true, Protocol.TCP, err)) {
            RpcSpec spec = spec(commandSpec, common, clients, total, inFlight, rate, rpc, resolved);
            if (rpc.warmup > 0) {
                err.println("warmup: " + rpc.warmup + (command.equals("register") ? " cycles" : " calls")
                        + " on the same connections, not counted");
            }
            Map<String, Object> config = config(command, spec, rpc.size);
            config.put("workload", workload);
            RpcSummary summary = RpcRuns.run(command, loadOf.apply(spec), common.interval,
                    new RunOptions(command, resolved.scrape(), common.report, err, config, hooks));
            return RunSupport.conclude(common, summary, exitStatus(summary, common.maxErrorRate),
                    () -> RpcSummaryTable.print(summary, out), out);
        }
    }

    /** The spec of these options against {@code resolved}'s RPC port; validated (a bad value a usage error) if null. */
    private static RpcSpec spec(CommandSpec commandSpec, CommonOptions common, int clients, long total, int inFlight,
            double rate, RpcOptions rpc, RunSupport.Target resolved) {
        try {
            io.ricochet.config.Checks.inRange("size", rpc.size, 0, 1 << 20);
            return new RpcSpec(resolved == null ? new java.net.InetSocketAddress(0) : resolved.rpc(), clients, total,
                    rpc.warmup, inFlight, rate, rpc.timeout, common.seed, common.workerIndex, rpc.firstConnection.value,
                    common.io, common.ioThreads, resolved == null ? null : RunSupport.within(resolved.tls(), rpc.timeout),
                    resolved == null ? null : RunSupport.within(resolved.noise(), rpc.timeout));
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(commandSpec, e);
        }
    }

    static int exitStatus(RpcSummary s, double maxErrorRate) {
        if (s.bad() > 0 || s.receivedOk() == 0) {
            return ExitCodes.FAILURE;
        }
        return s.errors() > maxErrorRate * s.requests() ? ExitCodes.FAILURE : ExitCodes.OK;
    }

    static Map<String, Object> config(String command, RpcSpec spec, int size) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", command);
        c.put("target", spec.target().getHostString() + ":" + spec.target().getPort());
        c.put("clients", spec.clients());
        c.put("total", spec.total());
        c.put("warmup", spec.warmup());
        c.put("in_flight", spec.inFlight());
        c.put("rate", spec.rate());
        c.put("size", size);
        c.put("timeout_s", spec.timeout().toNanos() / 1e9);
        c.put("seed", spec.seed());
        c.put("worker", spec.worker());
        c.put("io_threads", spec.ioThreads());
        c.put("client_io", spec.io().label());
        c.put("tls", spec.tls() == null ? "off" : spec.tls().provider());
        c.put("noise", spec.noise() == null ? "off" : spec.noise().mode().label() + "/" + spec.noise().keyBits());
        return c;
    }
}
